/**
 * What a server of many shops says of each (serve/shops/view.ts), on manifests of every kind of
 * trouble: the overview's "needs attention", the order that leads with the shops that need
 * someone, and the verdicts of /healthz and /monitor of all. shops.test.ts covers the same
 * over HTTP for a few of them.
 */
import { describe, expect, it } from "vitest";
import type { Health } from "../../src/serve/health.js";
import type { Manifest } from "../../src/publish/manifest.js";
import { runState } from "../../src/publish/run-state.js";
import { attentionOf, byNeed, firstLine, healthAll, monitorAll, type ShopView } from "../../src/serve/shops/view.js";
import { manifestFor, ndjson } from "./hand-made.js";

const NOW = new Date("2026-05-04T12:00:00Z");
const HOUR = 3600_000;

function healthOf(manifest: Manifest | undefined, feedsServed: number): Health {
  const state = runState(manifest, NOW, 36);
  return { state, manifest, feedsServed, body: manifest ? { status: state.status, run: manifest.status, feedsServed, summary: state.summary } : { status: "no-manifest", feedsServed: 0, summary: state.summary } };
}

function shop(id: string, manifest: Manifest | undefined, extra: Partial<ShopView> = {}): ShopView {
  return { id, name: id.toUpperCase(), health: healthOf(manifest, manifest ? manifest.channels.filter((c) => c.live).length : 0), ...extra };
}

const fresh = (ageHours = 1) => manifestFor([{ name: "google-fr", file: "google-fr.xml", content: ndjson(2, "x") }, { name: "meta-fr", file: "meta-fr.xml", content: ndjson(2, "y") }], new Date(NOW.getTime() - ageHours * HOUR));

function gated(): Manifest {
  const m = fresh();
  const [google, meta] = m.channels;
  return { ...m, status: "degraded", channels: [{ ...google!, published: "gate: items dropped 40% (limit 20%); previous file kept" }, meta!] };
}

function failed(): Manifest {
  return { ...fresh(), status: "failed", error: { code: "SOURCE_HTTP", message: "catalogue answered 503\nretried 5 times" }, channels: fresh().channels.map((c) => ({ ...c, published: "failed: the run failed (SOURCE_HTTP); previous file kept" })) };
}

describe("what needs attention", () => {
  it("nothing for a fresh run that published everything", () => {
    expect(attentionOf(shop("ok", fresh()))).toEqual([]);
  });

  it("a gate that held a feed, naming the channel and why", () => {
    expect(attentionOf(shop("held", gated()))).toEqual([{ severity: "warn", text: "google-fr: held by its gate (gate: items dropped 40% (limit 20%); previous file kept)" }]);
  });

  it("a failed run once (not once per channel), its first line", () => {
    expect(attentionOf(shop("failed", failed()))).toEqual([{ severity: "bad", text: "last run failed: SOURCE_HTTP: catalogue answered 503" }]);
  });

  it("stale feeds with their age, no run yet, a refused config, a refusal on reload", () => {
    expect(attentionOf(shop("stale", fresh(40)))).toEqual([{ severity: "bad", text: "stale feeds: the newest feed is 40.0 h old (more than 36 h)" }]);
    expect(attentionOf(shop("new", undefined))).toEqual([{ severity: "warn", text: "no run yet" }]);
    expect(attentionOf(shop("refused", fresh(), { refused: "x.json: name: bad" }))[0]).toEqual({ severity: "bad", text: "config refused: x.json: name: bad" });
    expect(attentionOf(shop("again", fresh(), { reloadRefused: "x.json: oops" }))[0]?.text).toMatch(/^config refused when read again after a run \(serving with the access rules known before\): x\.json: oops$/);
  });

  it("a run's problems beside the channels, and a folder whose feeds cannot be served", () => {
    const m: Manifest = { ...fresh(), status: "degraded", problems: [{ kind: "state", code: "STATE_WRITE", channel: "meta-fr", reason: "could not keep the snapshot\nENOSPC" }] as Manifest["problems"] };
    expect(attentionOf(shop("problem", m))).toEqual([{ severity: "warn", text: "meta-fr: could not keep the snapshot" }]);
    expect(attentionOf({ ...shop("empty", fresh()), health: healthOf(fresh(), 0) })).toEqual([{ severity: "bad", text: "no feed is served" }]);
  });
});

describe("the order of the overview", () => {
  it("leads with the shops that need someone, worst first, then keeps the config's order", () => {
    const views = [shop("a-ok", fresh()), shop("b-held", gated()), shop("c-stale", fresh(50)), shop("d-ok", fresh()), shop("e-refused", undefined, { refused: "broken" }), shop("f-failed", failed())];
    expect(byNeed(views).map((l) => l.view.id)).toEqual(["e-refused", "f-failed", "c-stale", "b-held", "a-ok", "d-ok"]);
  });
});

describe("/healthz and /monitor of all", () => {
  it("healthz: 200 while any shop serves a feed, the worst status, the shops that need someone", () => {
    const views = [shop("a", fresh()), shop("b", gated()), shop("c", undefined)];
    const h = healthAll(views);
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ status: "no-manifest", feedsServed: 4, attention: ["b", "c"] });
    expect(healthAll([shop("c", undefined), shop("r", undefined, { refused: "x" })]).status).toBe(503);
  });

  it("monitor: 200 when every shop is ok, 503 with each shop that alerts (degraded too, as a shop's own /monitor)", () => {
    expect(monitorAll([shop("a", fresh()), shop("b", fresh())])).toMatchObject({ status: 200, body: { status: "ok", alerts: [] } });
    const m = monitorAll([shop("a", fresh()), shop("b", gated()), shop("r", fresh(), { refused: "x" })]);
    expect(m.status).toBe(503);
    expect(m.body["alerts"]).toEqual([expect.objectContaining({ shop: "b", status: "degraded" }), expect.objectContaining({ shop: "r", status: "refused" })]);
  });
});

describe("firstLine", () => {
  it("gives a list's first entry and how many more, or the first line", () => {
    expect(firstLine("configuration refused (3 problems):\n  a.json: name: bad\n  b.json: x\n  c.json: y")).toBe("a.json: name: bad (and 2 more)");
    expect(firstLine("configuration refused (1 problem):\n  a.json: name: bad")).toBe("a.json: name: bad");
    expect(firstLine("plain\nsecond")).toBe("plain");
  });
});
