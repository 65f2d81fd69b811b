/**
 * What an alert (and the status page) says to do next (issue 34.2, 34.4): complete, copyable
 * commands with the real names; --force only where it publishes what the shop means; a date in a
 * spreadsheet's day/month/year said as such, with the date to write.
 */
import { describe, expect, it } from "vitest";
import { dateHint } from "../../src/mapping/offers.js";
import { forceHelps, readOffersFile } from "../../src/pipeline/offers-file.js";
import { command, nextStep } from "../../src/notify/next-steps.js";
import type { Manifest } from "../../src/publish/manifest.js";
import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CONFIG = "/srv/pharmacie belge/config/pharmafeed.json";

function manifest(part: Partial<Manifest>): Manifest {
  return { version: 1, startedAt: "2026-11-28T02:00:00Z", endedAt: "2026-11-28T02:05:00Z", status: "degraded", source: { total: 1, received: 1, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 }, channels: [], ...part };
}

describe("next steps", () => {
  it("quote a config path with a space so that the command can be pasted", () => {
    expect(command(CONFIG, "generate", "--retire", "gogle-be-fr")).toBe("pharmafeed generate --retire gogle-be-fr --config '/srv/pharmacie belge/config/pharmafeed.json'");
  });

  it("a held feed: the exact --retire command with the held name and the new one, in French", () => {
    const m = manifest({ problems: [{ kind: "served", code: "SERVED_NOT_CONFIGURED", channel: "gogle-be-fr", near: "google-be-fr", reason: "..." }] });
    const text = nextStep({ event: "run-degraded", language: "fr", manifest: m, configFile: CONFIG });
    expect(text).toContain("`pharmafeed generate --retire gogle-be-fr --config '/srv/pharmacie belge/config/pharmafeed.json'`");
    expect(text).toContain("(la configuration nomme maintenant google-be-fr)");
    expect(text).not.toMatch(/<canal>|--retire google-be-fr/);
  });

  it("a gate hold: --channel with each held channel, then --force", () => {
    const m = manifest({ unpublished: [{ channel: "google-be-fr", kind: "gate", reason: "gate: ..." }, { channel: "meta-be-nl", kind: "gate", reason: "gate: ..." }] });
    const text = nextStep({ event: "gate-tripped", language: "nl", manifest: m, configFile: "/etc/pf.json" });
    expect(text).toContain("reports/google-be-fr.csv, reports/meta-be-nl.csv");
    expect(text).toContain("`pharmafeed generate --channel google-be-fr --channel meta-be-nl --force --config /etc/pf.json`");
  });

  it("a shop of a config with shops: every command names it (--shops for generate, --shop for validate)", () => {
    const m = manifest({ unpublished: [{ channel: "google-fr", kind: "gate", reason: "gate: ..." }] });
    expect(nextStep({ event: "gate-tripped", language: "en", manifest: m, configFile: "/etc/pf.json", shop: "pharmacie-sud" })).toContain("`pharmafeed generate --shops pharmacie-sud --channel google-fr --force --config /etc/pf.json`");
    const failed = nextStep({ event: "run-failed", language: "en", error: { code: "CONFIG_INVALID" }, configFile: "/etc/pf.json", shop: "pharmacie-sud" });
    expect(failed).toContain("pharmafeed validate --shop pharmacie-sud --config /etc/pf.json");
    expect(failed).not.toMatch(/generate --config/);
  });

  it("a refused offers file: --force only when every row was read", () => {
    const fix = nextStep({ event: "offers-refused", language: "fr", configFile: "/etc/pf.json", forceHelps: false });
    expect(fix).toContain("N'utilisez pas --force ici");
    expect(fix).not.toContain("generate --force");
    const force = nextStep({ event: "offers-refused", language: "en", configFile: "/etc/pf.json", forceHelps: true });
    expect(force).toContain("`pharmafeed generate --force --config /etc/pf.json`");
  });

  it("forceHelps: a wrong header or refused rows never; a clean, smaller file yes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pf-next-"));
    try {
      const read = async (text: string) => {
        await writeFile(join(dir, "o.csv"), text);
        return readOffersFile(join(dir, "o.csv"), "csv");
      };
      expect(forceHelps(await read("EAN;Prix;Stock\n3400930000014;1,50;2\n"))).toBe(false);
      const dated = await read("id;price;sale_price;sale_from;sale_until\na;2,00;1,50;2026-11-01;01/11/2026\nb;3,00;;;\n");
      expect(forceHelps(dated)).toBe(false);
      expect(dated.rows).toBe(2);
      expect(dated.rowsAccepted).toBe(1);
      expect(dated.errors[0]!.detail).toBe("sale_until 01/11/2026: expected YYYY-MM-DD (ISO 8601, e.g. 2026-11-01 or 2026-11-01T08:00:00+01:00) or Unix seconds; the file has day/month/year: write 2026-11-01");
      expect(forceHelps(await read("id;price\na;2,00\n"))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("dateHint: day/month by default, month/day when the first number cannot be a month", () => {
    expect(dateHint("25/12/2026")).toMatch(/day\/month\/year: write 2026-12-25$/);
    expect(dateHint("12/25/2026")).toMatch(/month\/day\/year: write 2026-12-25$/);
    expect(dateHint("tomorrow")).toBe("expected YYYY-MM-DD (ISO 8601, e.g. 2026-11-01 or 2026-11-01T08:00:00+01:00) or Unix seconds");
  });
});
