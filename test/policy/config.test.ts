/**
 * The policy table as a config loads it (docs/policy.md, "Your own rows"): every refusal comes
 * before any work, names the file and the JSON path and says what was expected; rows override in
 * the order table < policy.files < policy.rows < a channel file's own policy.rows, per channel.
 * Every config here brings its own table (`policy.table`), so nothing depends on the shipped one.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { LoadedConfig } from "../../src/config/types.js";
import { isPharmafeedError } from "../../src/errors.js";
import type { PolicyRule } from "../../src/policy/index.js";
import { removeTemporaries, writeConfig, type ChannelFileJson } from "../e2e/config.js";
import { ensureBuilt, killAll, ROOT, runCli } from "../e2e/cli.js";

afterAll(async () => {
  killAll();
  await removeTemporaries();
});

type Row = Record<string, unknown>;

/** A valid row of the generic marketplace; `over` changes or adds fields. */
const row = (over: Row = {}): Row => ({
  channel: "generic",
  country: "FR",
  class: "food-supplement",
  verdict: "deny",
  source: "https://policy.example/generic-fr-food",
  verified: "2026-01-10",
  recheck: "2026-07-10",
  rule: "test: no food supplements in generic French feeds",
  ...over,
});

/** The table every config starts from: `* * *` allow and one certified row (so that `cert-a` is a name the table knows). */
const TABLE = {
  policy: 1,
  rows: [
    row({ channel: "*", country: "*", class: "*", verdict: "allow", source: "https://policy.example/default", rule: "test default" }),
    row({ class: "biocide", verdict: "allow-if-certified: cert-a", source: "https://policy.example/biocide", rule: "test biocides need cert-a" }),
  ],
};

const channel = (name: string, extra: Row = {}): ChannelFileJson => ({ name, preset: "generic-json", locale: "fr", link: { template: "https://shop.example/p/{{id}}" }, ...extra });

const ENV = { CATALOGUE_API_KEY_ID: "key-id", CATALOGUE_API_KEY_SECRET: "key-secret" };

interface Setup {
  main?: Row;
  files?: Record<string, unknown>;
  channels?: ChannelFileJson[];
  /** Replaces the default table folder's files. */
  table?: Record<string, unknown>;
}

async function tree(setup: Setup) {
  const table = setup.table ?? { "all.json": TABLE };
  const files: Record<string, unknown> = { ...Object.fromEntries(Object.entries(table).map(([name, content]) => [`policy-table/${name}`, content])), ...setup.files };
  // A shop without certifications unless the test gives one: the e2e shop's are named by the shipped table, not this one.
  const shop = { name: "Pharmacie Test", url: "https://shop.example" };
  const main = { shop, ...setup.main, policy: { table: "policy-table", ...(setup.main?.["policy"] as Row | undefined) } };
  return writeConfig({ channels: setup.channels ?? [channel("json-fr")], main, files });
}

async function load(setup: Setup): Promise<LoadedConfig> {
  const t = await tree(setup);
  return loadConfig(t.configFile, { env: ENV, checkCredentials: false });
}

/** The refusal's problem lines (one per problem, "<file>: <path>: <message>"); fails when the config is accepted. */
async function refusal(setup: Setup): Promise<{ lines: string[]; configDir: string }> {
  const t = await tree(setup);
  const error = await loadConfig(t.configFile, { env: ENV, checkCredentials: false }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the config was accepted").toBeDefined();
  expect(isPharmafeedError(error, "CONFIG_INVALID"), String(error)).toBe(true);
  const [head = "", ...lines] = (error as Error).message.split("\n");
  expect(head).toBe(`configuration refused (${lines.length} problem${lines.length === 1 ? "" : "s"}):`);
  return { lines: lines.map((l) => l.trim()), configDir: join(t.root, "config") };
}

const ruleOf = (rules: readonly PolicyRule[], key: string) => rules.find((r) => `${r.channel} ${r.country} ${r.class}` === key);

describe("a malformed row in policy.rows is refused with the file, the JSON path and what was expected", () => {
  it.each<[string, Row, string]>([
    ["a verdict that is none of the three", { verdict: "maybe" }, 'policy.rows[1].verdict: deny, allow or "allow-if-certified: <certification>" (lower case, digits and -), got "maybe"'],
    ["allow-if-certified without a certification", { verdict: "allow-if-certified:" }, 'policy.rows[1].verdict: deny, allow or "allow-if-certified: <certification>"'],
    ["a class that does not exist", { class: "candy" }, 'policy.rows[1].class: Invalid option: expected one of "prescription-medicine"|'],
    ["an impossible date", { verified: "2026-02-30" }, 'policy.rows[1].verified: a date that exists, got "2026-02-30"'],
    ["29 February of a year that has none", { recheck: "2027-02-29" }, 'policy.rows[1].recheck: a date that exists, got "2027-02-29"'],
    ["a source that is not a URL", { source: "policy.example/page" }, 'policy.rows[1].source: an http(s) URL or a docs/ path, got "policy.example/page"'],
    ["a source of another scheme", { source: "ftp://policy.example/page" }, 'policy.rows[1].source: an http(s) URL or a docs/ path, got "ftp://policy.example/page"'],
    ["a lower-case country", { country: "fr" }, 'policy.rows[1].country: an ISO 3166 country code (FR, BE, ...) or "*", got "fr"'],
    ["a limit the table does not know", { limits: { maxAge: 65 } }, "policy.rows[1].limits"],
  ])("%s", async (_, over, expected) => {
    const { lines, configDir } = await refusal({ main: { policy: { rows: [row({ class: "veterinary", verdict: "allow" }), row(over)] } } });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.startsWith(`${join(configDir, "pharmafeed.json")}: ${expected}`), lines[0]).toBe(true);
  });

  // BUG (src/policy/schema.ts, Day): a string that is not a calendar date of the pattern's range
  // (month 13, day 32, "10/07/2026", "soon") reaches the refine "a date that exists", which calls
  // new Date(`${d}T00:00:00Z`).toISOString() on an invalid date: a RangeError thrown out of zod's
  // safeParse (zod 4 runs refinements after a failed regex). The config is not refused with its
  // file and path: loadConfig throws "Invalid time value", and the CLI (generate, validate, policy)
  // exits 1 with "UNEXPECTED: unexpected error: RangeError" and a stack, naming no file or row.
  it.each([
    ["recheck", "2026-13-01", "a date that exists"],
    ["verified", "2026-12-32", "a date that exists"],
    ["recheck", "2026-00-10", "a date that exists"],
    ["recheck", "10/07/2026", "a date YYYY-MM-DD"],
    ["recheck", "soon", "a date YYYY-MM-DD"],
  ])("a %s of %s is refused as a config problem (not thrown as a RangeError)", async (field, date, expected) => {
    const { lines, configDir } = await refusal({ main: { policy: { rows: [row({ [field]: date })] } } });
    // Every problem is this field's (a fixed schema may say both "YYYY-MM-DD" and "exists" for one value).
    const at = `${join(configDir, "pharmafeed.json")}: policy.rows[0].${field}: `;
    expect(lines.every((l) => l.startsWith(at)), lines.join("\n")).toBe(true);
    expect(lines.some((l) => l.startsWith(`${at}${expected}`)), lines.join("\n")).toBe(true);
  });

  it("the same out-of-range date in a table file is refused with that file and row", async () => {
    const { lines, configDir } = await refusal({ table: { "all.json": { policy: 1, rows: [...TABLE.rows, row({ recheck: "2026-13-01" })] } } });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.startsWith(`${join(configDir, "policy-table", "all.json")}: rows[2].recheck: a date that exists`), lines[0]).toBe(true);
  });
});

describe("one key twice, a file missing, a name nobody asks for", () => {
  it("a row key written twice in policy.rows names both places", async () => {
    const { lines, configDir } = await refusal({ main: { policy: { rows: [row(), row({ class: "biocide" }), row({ verdict: "allow", source: "https://policy.example/other" })] } } });
    expect(lines).toEqual([`${join(configDir, "pharmafeed.json")}: policy.rows[2]: "generic FR food-supplement" is also policy.rows[0]: keep one row per channel, country and class`]);
  });

  it("wildcards are part of the key: `generic * *` and `generic FR *` are two rows, written twice each is refused twice", async () => {
    const a = row({ country: "*", class: "*" });
    const b = row({ class: "*" });
    const { lines } = await refusal({ main: { policy: { rows: [a, b, a, b] } } });
    expect(lines.map((l) => l.slice(l.indexOf("policy.rows")))).toEqual([
      'policy.rows[2]: "generic * *" is also policy.rows[0]: keep one row per channel, country and class',
      'policy.rows[3]: "generic FR *" is also policy.rows[1]: keep one row per channel, country and class',
    ]);
  });

  it("a policy.files file that does not exist is refused with its path", async () => {
    const { lines, configDir } = await refusal({ main: { policy: { files: ["lawyer/2027.json"] } } });
    const missing = join(configDir, "lawyer", "2027.json");
    expect(lines).toHaveLength(1);
    // The file is named once (readJsonFile's message starts with it too).
    expect(lines[0]).toBe(`${missing}: (file): cannot read (no such file)`);
  });

  it("a policy.files file is refused whole, with its file and path, for one malformed row", async () => {
    const file = { policy: 1, rows: [row({ class: "biocide", verdict: "allow" }), row(), row({ class: "veterinary" }), row({ class: "other", verdict: "forbid" })] };
    const { lines, configDir } = await refusal({ main: { policy: { files: ["lawyer.json"] } }, files: { "lawyer.json": file } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${escape(join(configDir, "lawyer.json"))}: rows\\[3\\]\\.verdict: deny, allow or "allow-if-certified: <certification>"`));
  });

  it("a main file refused by its schema still has its policy files read: every problem at once (a review found them hidden)", async () => {
    const { lines, configDir } = await refusal({ main: { output: { dir: 5 }, policy: { files: ["lawyer.json"] } }, files: { "lawyer.json": { policy: 1, rows: [row({ verdict: "maybe" })] } } });
    expect(lines).toEqual([
      `${join(configDir, "pharmafeed.json")}: output.dir: a text is needed, got 5`,
      `${join(configDir, "lawyer.json")}: rows[0].verdict: deny, allow or "allow-if-certified: <certification>" (lower case, digits and -), got "maybe"`,
    ]);
  });

  it("a policy.files file with one key twice is refused", async () => {
    const { lines, configDir } = await refusal({ main: { policy: { files: ["lawyer.json"] } }, files: { "lawyer.json": { policy: 1, rows: [row(), row({ verdict: "allow" })] } } });
    expect(lines).toEqual([`${join(configDir, "lawyer.json")}: rows[1]: "generic FR food-supplement" is also rows[0]: keep one row per channel, country and class`]);
  });

  it("a table folder with the same key in two files is refused, naming both files", async () => {
    const { lines, configDir } = await refusal({ table: { "all.json": TABLE, "generic.json": { policy: 1, rows: [row({ verdict: "allow" })] }, "zz-more.json": { policy: 1, rows: [row()] } } });
    expect(lines).toEqual([`${join(configDir, "policy-table", "zz-more.json")}: rows: "generic FR food-supplement" is also in ${join(configDir, "policy-table", "generic.json")}: one table has one row per channel, country and class`]);
  });

  it("a table folder that does not exist is refused", async () => {
    const { lines, configDir } = await refusal({ main: { policy: { table: "no-such-table" } } });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.startsWith(`${join(configDir, "no-such-table")}: (folder): `)).toBe(true);
  });

  it("a certification no allow-if-certified row names is refused, and the message lists the names rows do ask for", async () => {
    const rows = [row({ class: "veterinary", verdict: "allow-if-certified: vet-b" }), row({ class: "medical-device", verdict: "allow-if-certified: device-c" })];
    const shop = { name: "Pharmacie", url: "https://shop.example", certifications: ["cert-a", "google-online-pharmacy-france", "vet-b"] };
    const { lines, configDir } = await refusal({ main: { shop, policy: { rows } } });
    expect(lines).toEqual([`${join(configDir, "pharmafeed.json")}: shop.certifications[1]: "google-online-pharmacy-france" is named by no allow-if-certified row of the policy table (named: cert-a, device-c, vet-b)`]);
  });

  it("a certification whose only row a later row replaced is named by no row any more", async () => {
    // The table's `generic FR biocide` asks for cert-a; the config's own row of the same key denies.
    const shop = { name: "Pharmacie", url: "https://shop.example", certifications: ["cert-a"] };
    const { lines } = await refusal({ main: { shop, policy: { rows: [row({ class: "biocide" })] } } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/shop\.certifications\[0\]: "cert-a" is named by no allow-if-certified row of the policy table \(named: none\)$/);
  });

  it("a certification a channel file's own row asks for is a known name", async () => {
    const shop = { name: "Pharmacie", url: "https://shop.example", certifications: ["cert-a", "own-d"] };
    const config = await load({ main: { shop }, channels: [channel("json-fr", { policy: { rows: [row({ class: "other", verdict: "allow-if-certified: own-d" })] } })] });
    expect(config.shop.certifications).toEqual(["cert-a", "own-d"]);
    expect(config.channels[0]!.mapping.policy.certifications).toEqual(["cert-a", "own-d"]);
  });

  it("a malformed row of a channel file's own policy.rows is refused with the channel file and path", async () => {
    const { lines, configDir } = await refusal({ channels: [channel("json-fr", { policy: { rows: [row(), row({ class: "biocide", recheck: "2026-02-30" })] } })] });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${escape(join(configDir, "channels", "json-fr.json"))}: policy\\.rows\\[1\\]\\.recheck: a date that exists`));
  });

  it("a channel file's own rows with one key twice are refused with the channel file", async () => {
    const { lines, configDir } = await refusal({ channels: [channel("json-fr", { policy: { rows: [row(), row({ verdict: "allow" })] } })] });
    expect(lines).toEqual([`${join(configDir, "channels", "json-fr.json")}: policy.rows[1]: "generic FR food-supplement" is also policy.rows[0]: keep one row per channel, country and class`]);
  });

  it("`pharmafeed generate` refuses before any work: exit 3, the file and path on stderr, no output folder", async () => {
    const t = await tree({ main: { policy: { rows: [row({ verified: "2026-02-30" })] } } });
    ensureBuilt();
    const result = await runCli(["generate", "--config", t.configFile], { env: ENV, cwd: ROOT });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain(`${t.configFile}: policy.rows[0].verified: a date that exists, got "2026-02-30"`);
    expect(existsSync(t.outputDir)).toBe(false);
  });
});

describe("what would match nothing, or loosen the table without saying so, is refused (a review found each silent)", () => {
  const file = (configDir: string, ...parts: string[]) => join(configDir, ...parts);

  it("a marketplace typo in a channel file's policy.channel: its feeds would get no marketplace's rows", async () => {
    const { lines, configDir } = await refusal({ channels: [channel("json-fr", { policy: { channel: "gogle" } })] });
    expect(lines).toEqual([`${file(configDir, "channels", "json-fr.json")}: policy.channel: "gogle" is no marketplace of the policy table (google, microsoft, meta, idealo, kelkoo, beslist, medizinfuchs, billiger, generic) and no row names it: the channel would get no marketplace's rows (a marketplace of your own needs rows of its own)`]);
  });

  it("a row for a marketplace no channel is sold on and the table does not know; a row naming a channel instead of its marketplace says so", async () => {
    const { lines, configDir } = await refusal({ main: { policy: { rows: [row({ channel: "gogle" }), row({ channel: "json-fr", class: "biocide" })] } } });
    const at = `${file(configDir, "pharmafeed.json")}: policy.rows`;
    expect(lines).toEqual([
      `${at}[0].channel: "gogle" is no marketplace of the policy table (google, microsoft, meta, idealo, kelkoo, beslist, medizinfuchs, billiger, generic) and no channel's policy.channel: the row would apply to nothing`,
      `${at}[1].channel: "json-fr" is no marketplace of the policy table (google, microsoft, meta, idealo, kelkoo, beslist, medizinfuchs, billiger, generic) and no channel's policy.channel: the row would apply to nothing (a row names the marketplace, not the channel: json-fr is sold on generic)`,
    ]);
  });

  it("a marketplace of your own: a channel and a row that share its name are accepted and the row decides", async () => {
    const config = await load({ channels: [channel("bol-nl", { country: "NL", policy: { channel: "bol", rows: [row({ channel: "bol", country: "NL", class: "food-supplement", verdict: "deny" })] } })] });
    const rows = config.channels[0]!.mapping.policy.rows;
    expect(ruleOf(rows, "bol NL food-supplement")?.verdict).toBe("deny");
  });

  it.each([
    ["UK in a row", { main: { policy: { rows: [row({ country: "UK" })] } } }, 'policy.rows[0].country: an ISO 3166 country code (write GB, not UK) or "*", got "UK"'],
    ["XX in a row", { main: { policy: { rows: [row({ country: "XX" })] } } }, 'policy.rows[0].country: an ISO 3166 country code (FR, BE, NL, DE, AT, ...) or "*", got "XX"'],
  ])("a country that is not ISO 3166: %s", async (_, setup, expected) => {
    const { lines, configDir } = await refusal(setup as Setup);
    expect(lines).toEqual([`${file(configDir, "pharmafeed.json")}: ${expected}`]);
  });

  it("a channel's country that is not ISO 3166 (EL for Greece) is refused with the channel file", async () => {
    const { lines } = await refusal({ channels: [channel("json-gr", { country: "EL" })] });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/json-gr\.json: country: an ISO 3166 country code \(write GR, not EL\), got "EL"$/);
  });

  /** The table of a shop in France: prescription medicines denied, OTC medicines with cert-a, biocides with banned terms. */
  const FRANCE = {
    "all.json": {
      policy: 1,
      rows: [
        ...TABLE.rows,
        row({ channel: "*", country: "*", class: "prescription-medicine", verdict: "deny", source: "https://policy.example/rx" }),
        row({ channel: "*", country: "FR", class: "pharmacy-medicine", verdict: "allow-if-certified: cert-a", source: "https://policy.example/otc" }),
        row({ channel: "*", country: "FR", class: "veterinary", verdict: "allow", limits: { bannedTerms: ["raticide"] }, source: "https://policy.example/vet" }),
      ],
    },
  };

  it("a row of class * that would decide classes over stricter rows naming them is refused, each class and channel named", async () => {
    const broad = row({ class: "*", verdict: "allow", source: "https://policy.example/broad", rule: "everything else" });
    const { lines, configDir } = await refusal({ table: FRANCE, main: { policy: { rows: [broad] } }, channels: [channel("json-fr"), channel("csv-fr", { preset: "generic-csv" })] });
    expect(lines).toEqual([
      `${file(configDir, "pharmafeed.json")}: policy.rows[0]: "generic FR *" allow would decide prescription-medicine over "* * prescription-medicine" deny; pharmacy-medicine over "* FR pharmacy-medicine" allow-if-certified: cert-a; veterinary over "* FR veterinary" allow (limits: bannedTerms), on json-fr, csv-fr: a row of class * may not loosen a row that names the class. Write a row per class it should decide instead (channel, country and class), or a row for that class that says what you mean`,
    ]);
  });

  it("the same from a channel file's own rows, and from a country-wide row (* FR *) over a rule of every country", async () => {
    const own = row({ class: "*", verdict: "allow-if-certified: cert-a", source: "https://policy.example/own" });
    const { lines, configDir } = await refusal({ table: FRANCE, channels: [channel("json-fr", { policy: { rows: [own] } })] });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${escape(file(configDir, "channels", "json-fr.json"))}: policy\\.rows\\[0\\]: "generic FR \\*" allow-if-certified: cert-a would decide prescription-medicine over "\\* \\* prescription-medicine" deny; veterinary over`));
    const country = row({ channel: "*", class: "*", verdict: "allow", source: "https://policy.example/fr" });
    expect((await refusal({ table: FRANCE, main: { policy: { rows: [country] } } })).lines[0]).toMatch(/policy\.rows\[0\]: "\* FR \*" allow would decide prescription-medicine over "\* \* prescription-medicine" deny/);
  });

  it("a row of class * as strict as what it decides over is accepted: deny, or the same verdict and limits", async () => {
    const config = await load({ table: FRANCE, main: { policy: { rows: [row({ class: "*", verdict: "deny", source: "https://policy.example/none" })] } } });
    expect(ruleOf(config.channels[0]!.mapping.policy.rows, "generic FR *")?.verdict).toBe("deny");
    // Over a table whose only row naming a class is as strict, an allow of class * is fine.
    const lenient = { "all.json": { policy: 1, rows: [TABLE.rows[0], row({ channel: "*", country: "*", class: "food-supplement", verdict: "allow", source: "https://policy.example/food" })] } };
    await expect(load({ table: lenient, main: { policy: { rows: [row({ class: "*", verdict: "allow", source: "https://policy.example/all" })] } } })).resolves.toBeDefined();
  });
});

describe("which row is in effect: table < policy.files < policy.rows < the channel file's own rows", () => {
  const KEY = "generic FR food-supplement";
  const layer = (name: string, verdict: string) => row({ verdict, source: `https://policy.example/${name}`, rule: `from the ${name}` });
  const TABLE_ROW = layer("table", "allow-if-certified: table-cert");
  const FILE_ROW = layer("file", "allow");
  const MAIN_ROW = layer("main", "deny");
  const CHANNEL_ROW = layer("channel", "allow-if-certified: channel-cert");

  async function effective(layers: { file?: boolean; main?: boolean; channel?: boolean }) {
    const config = await load({
      table: { "all.json": { policy: 1, rows: [...TABLE.rows, TABLE_ROW] } },
      main: { policy: { ...(layers.file ? { files: ["lawyer.json"] } : {}), ...(layers.main ? { rows: [MAIN_ROW] } : {}) } },
      files: { "lawyer.json": { policy: 1, rows: [FILE_ROW] } },
      channels: [channel("json-fr", layers.channel ? { policy: { rows: [CHANNEL_ROW] } } : {}), channel("json-be", { country: "BE" })],
    });
    const [own, other] = config.channels;
    return { config, own: ruleOf(own!.mapping.policy.rows as PolicyRule[], KEY), other: ruleOf(other!.mapping.policy.rows as PolicyRule[], KEY) };
  }

  it("the table's row alone", async () => {
    const { config, own, other } = await effective({});
    expect(ruleOf(config.policy, KEY)).toMatchObject({ verdict: "allow-if-certified: table-cert", source: "https://policy.example/table", from: expect.stringMatching(/policy-table\/all\.json$/) });
    expect(own?.source).toBe("https://policy.example/table");
    expect(other?.source).toBe("https://policy.example/table");
  });

  it("policy.files over the table", async () => {
    const { config, own } = await effective({ file: true });
    expect(ruleOf(config.policy, KEY)).toMatchObject({ verdict: "allow", source: "https://policy.example/file", from: expect.stringMatching(/config\/lawyer\.json$/) });
    expect(own?.source).toBe("https://policy.example/file");
  });

  it("policy.rows over policy.files", async () => {
    const { config, own } = await effective({ file: true, main: true });
    expect(ruleOf(config.policy, KEY)).toMatchObject({ verdict: "deny", source: "https://policy.example/main", from: expect.stringMatching(/pharmafeed\.json policy\.rows$/) });
    expect(own?.source).toBe("https://policy.example/main");
  });

  it("the channel file's own row over policy.rows, for that channel only (the config's rows and the other channel keep theirs)", async () => {
    const { config, own, other } = await effective({ file: true, main: true, channel: true });
    expect(own).toMatchObject({ verdict: "allow-if-certified: channel-cert", source: "https://policy.example/channel", rule: "from the channel", from: expect.stringMatching(/channels\/json-fr\.json policy\.rows$/) });
    expect(other).toMatchObject({ verdict: "deny", source: "https://policy.example/main" });
    expect(ruleOf(config.policy, KEY)?.source).toBe("https://policy.example/main");
    expect(config.policy.some((r) => r.source === "https://policy.example/channel")).toBe(false);
  });

  it("one row per key in each channel's rows, the table's other rows kept", async () => {
    const { config } = await effective({ file: true, main: true, channel: true });
    for (const c of config.channels) {
      const keys = (c.mapping.policy.rows as PolicyRule[]).map((r) => `${r.channel} ${r.country} ${r.class}`);
      expect(new Set(keys).size, c.name).toBe(keys.length);
      expect(keys.sort(), c.name).toEqual(["* * *", "generic FR biocide", KEY].sort());
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
