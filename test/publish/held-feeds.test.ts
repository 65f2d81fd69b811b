import { describe, expect, it } from "vitest";
import type { AccessConfig } from "../../src/config/schema.js";
import type { ChannelEntry } from "../../src/publish/manifest.js";
import { heldFeeds, renamedTo } from "../../src/publish/held-feeds.js";
import { heldAccess } from "../../src/serve/held-access.js";

function entry(name: string, online = true): ChannelEntry {
  const file = `${name}.xml`;
  return {
    name,
    preset: "google",
    locale: "fr",
    format: "google-xml",
    contentType: "application/xml",
    file,
    items: 10,
    excluded: {},
    warnings: {},
    fallbacks: {},
    bytes: 100,
    sha256: "x",
    published: true,
    live: online ? { file, items: 10, bytes: 100, sha256: "x", publishedAt: "2026-01-01T00:00:00.000Z" } : null,
  };
}

const previous = [entry("google-fr"), entry("idealo-fr"), entry("old-never-online", false)];

describe("heldFeeds: a served channel the config no longer names", () => {
  it("is held with a served Problem saying where, did-you-mean and how to retire", () => {
    const out = heldFeeds({ previous, configured: ["gogle-fr", "idealo-fr"], retire: new Set(), force: false });
    expect(out.held.map((e) => e.name)).toEqual(["google-fr"]);
    expect(out.held[0]).toBe(previous[0]);
    expect(out.retired).toEqual([]);
    expect(out.problems).toHaveLength(1);
    expect(out.problems[0]).toMatchObject({ kind: "served", code: "SERVED_NOT_CONFIGURED", channel: "google-fr" });
    expect(out.problems[0]!.reason).toContain('(renamed to "gogle-fr"? "google-fr" was fetched by a marketplace: register the new URL there first)');
    expect(out.problems[0]!.near).toBe("gogle-fr");
    expect(out.problems[0]!.reason).toContain("/feeds/google-fr.xml");
    expect(out.problems[0]!.reason).toContain("pharmafeed generate --retire google-fr");
  });

  it("is dropped on purpose with --retire or --force; a channel with nothing online is dropped without a word", () => {
    expect(heldFeeds({ previous, configured: ["idealo-fr"], retire: new Set(["google-fr"]), force: false })).toEqual({ held: [], problems: [], retired: ["google-fr"], unfetched: [] });
    expect(heldFeeds({ previous, configured: [], retire: new Set(), force: true }).retired).toEqual(["google-fr", "idealo-fr"]);
    expect(heldFeeds({ previous, configured: ["google-fr", "idealo-fr"], retire: new Set(), force: false })).toEqual({ held: [], problems: [], retired: [], unfetched: [] });
  });

  it("retires at once a feed no marketplace ever fetched (serve's state knows), holds one that was fetched or pushed elsewhere", () => {
    const out = heldFeeds({ previous, configured: ["idealo-fr"], retire: new Set(), force: false, fetched: new Set(["idealo-fr"]) });
    expect(out.held).toEqual([]);
    expect(out.unfetched).toEqual([{ channel: "google-fr", file: "google-fr.xml", reason: 'the config no longer names channel "google-fr" and no marketplace ever fetched google-fr.xml: no longer served' }]);
    expect(heldFeeds({ previous, configured: ["idealo-fr"], retire: new Set(), force: false, fetched: new Set(["google-fr"]) }).held.map((e) => e.name)).toEqual(["google-fr"]);
    // No state from serve: nothing is known, the feed is held.
    expect(heldFeeds({ previous, configured: ["idealo-fr"], retire: new Set(), force: false }).held.map((e) => e.name)).toEqual(["google-fr"]);
    const pushed = [{ ...entry("google-fr"), destinations: [{ name: "s3", kind: "s3" }] }] as unknown as typeof previous;
    expect(heldFeeds({ previous: pushed, configured: [], retire: new Set(), force: false, fetched: new Set() }).held).toHaveLength(1);
  });

  it("suggests only a new name that is close", () => {
    expect(renamedTo("google-fr", ["gogle-fr", "idealo-fr"], previous)).toBe("gogle-fr");
    expect(renamedTo("google-fr", ["meta-nl", "idealo-fr"], previous)).toBeUndefined();
    // idealo-fr was already there: not a rename of google-fr.
    expect(renamedTo("idealo-fr", ["idealo-fr"], previous)).toBeUndefined();
  });
});

describe("heldAccess: the rule of a feed serve no longer finds in the config", () => {
  const open: AccessConfig = { mode: "open" };
  const token: AccessConfig = { mode: "token", token: "made-up-token" };
  it("borrows the rule of the close name it was renamed to", () => {
    expect(heldAccess("google-fr", new Map<string, AccessConfig>([["gogle-fr", token], ["meta-fr", open]]))).toBe(token);
  });
  it("is open only when every channel is open, and unknown otherwise", () => {
    expect(heldAccess("google-fr", new Map<string, AccessConfig>([["meta-nl", open]]))).toEqual({ mode: "open" });
    expect(heldAccess("google-fr", new Map<string, AccessConfig>([["meta-nl", open], ["kelkoo-be", token]]))).toBeUndefined();
    expect(heldAccess("google-fr", new Map<string, AccessConfig>())).toBeUndefined();
  });
});
