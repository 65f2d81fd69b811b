/** The run state of the status page, from manifests of both vocabularies (ok|partial|failed, and ok|degraded|failed with a why per channel). */
import { describe, expect, it } from "vitest";
import type { Manifest } from "../../src/publish/manifest.js";
import { runState } from "../../src/serve/status/run-state.js";
import { pickLanguage } from "../../src/serve/status/i18n.js";

const NOW = new Date("2026-11-25T12:00:00Z");

function manifest(status: string, channels: { name: string; published: true | string; why?: string; publishedAt?: string }[]): Manifest {
  return {
    version: 1,
    startedAt: "2026-11-25T03:00:00Z",
    endedAt: "2026-11-25T03:10:00Z",
    status,
    source: { total: 1, received: 1, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 },
    channels: channels.map((c) => ({
      name: c.name,
      published: c.published,
      ...(c.why ? { why: c.why } : {}),
      live: c.publishedAt ? { file: `${c.name}.xml`, items: 1, bytes: 1, sha256: "", publishedAt: c.publishedAt } : null,
    })),
  } as unknown as Manifest;
}

describe("runState (the page's words for what /healthz says)", () => {
  it("ok when every channel published recently", () => {
    expect(runState(manifest("ok", [{ name: "a", published: true, publishedAt: "2026-11-25T03:10:00Z" }]), NOW)).toMatchObject({ state: "ok", why: [], newestFeedAt: "2026-11-25T03:10:00Z" });
  });
  it("degraded from the old vocabulary (partial) and the new one (degraded), with why per channel", () => {
    const channels = [
      { name: "a", published: true as const, publishedAt: "2026-11-25T03:10:00Z" },
      { name: "b", published: "gate: items dropped 35.0%", publishedAt: "2026-11-24T03:10:00Z" },
    ];
    for (const status of ["partial", "degraded"]) {
      expect(runState(manifest(status, channels), NOW)).toMatchObject({ state: "degraded", why: [{ channel: "b", why: "gate: items dropped 35.0%" }] });
    }
  });
  it("failed while the feeds are recent; stale once they are older than the bound (36 h unless said); failed when no feed ever was; none without a manifest", () => {
    expect(runState(manifest("failed", [{ name: "a", published: "failed: x", publishedAt: "2026-11-25T03:10:00Z" }]), NOW).state).toBe("failed");
    expect(runState(manifest("failed", [{ name: "a", published: "failed: x", publishedAt: "2026-11-23T03:10:00Z" }]), NOW).state).toBe("stale");
    expect(runState(manifest("failed", [{ name: "a", published: "failed: x" }]), NOW).state).toBe("failed");
    expect(runState(manifest("ok", [{ name: "a", published: true, publishedAt: "2026-11-23T23:59:00Z" }]), NOW).state).toBe("stale");
    expect(runState(manifest("ok", [{ name: "a", published: true, publishedAt: "2026-11-24T00:01:00Z" }]), NOW).state).toBe("ok");
    expect(runState(manifest("ok", [{ name: "a", published: true, publishedAt: "2026-11-25T10:00:00Z" }]), NOW, 1).state).toBe("stale");
    expect(runState(undefined, NOW).state).toBe("none");
  });
});

describe("pickLanguage", () => {
  it("takes ?lang= first, then Accept-Language by q-value, English otherwise", () => {
    expect(pickLanguage("nl", "fr-FR,fr;q=0.9")).toBe("nl");
    expect(pickLanguage(null, "fr-BE,fr;q=0.9,en;q=0.8")).toBe("fr");
    expect(pickLanguage(null, "de-DE,de;q=0.9,nl;q=0.5,fr;q=0.4")).toBe("nl");
    expect(pickLanguage(null, "en;q=0.1,fr;q=0.7")).toBe("fr");
    expect(pickLanguage("xx", "es")).toBe("en");
    expect(pickLanguage(null, undefined)).toBe("en");
  });
});
