/** The policy table's pieces, pure: classes from catalogue fields, which row decides, the verdict and its limits, files read. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Product } from "../../src/catalogue/schemas/product.js";
import {
  channelRules,
  decidePolicy,
  mergeRules,
  overdueRules,
  type PolicyProblem,
  type PolicyRule,
  productClasses,
  readPolicyDir,
  readPolicyFile,
} from "../../src/policy/index.js";

const row = (channel: string, country: string, klass: string, verdict: string, extra: Partial<PolicyRule> = {}): PolicyRule => ({
  channel,
  country,
  class: klass as PolicyRule["class"],
  verdict,
  source: `https://example.org/${channel}/${country}/${klass}`,
  verified: "2026-11-01",
  recheck: "2027-05-01",
  rule: `${channel} ${country} ${klass}`,
  from: "test",
  ...extra,
});

const p = (fields: Record<string, unknown>) => Product.parse({ id: "P1", ...fields });
const medicine = { catalogCategories: [{ id: "M", type: "medicine" }] };

describe("productClasses", () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ["nothing health-related", {}, ["other"]],
    ["a prescription medicine", { ...medicine, prescription: true }, ["prescription-medicine"]],
    ["prescription without a medicine type still counts", { prescription: true }, ["prescription-medicine"]],
    ["an OTC medicine (pharmacy-only: the catalogue cannot tell general sale)", medicine, ["pharmacy-medicine"]],
    ["reimbursed by rate", { ...medicine, rateOfReimbursement: 30 }, ["pharmacy-medicine", "reimbursable-medicine"]],
    ["reimbursed by codeActe PH7", { ...medicine, prescription: true, codeActe: "PH7" }, ["prescription-medicine", "reimbursable-medicine"]],
    ["PHN is not reimbursed", { ...medicine, codeActe: "PHN", rateOfReimbursement: 0 }, ["pharmacy-medicine"]],
    ["a rate on a non-medicine is not a reimbursable medicine", { rateOfReimbursement: 60 }, ["other"]],
    ["LPPR code on a non-medicine: a device", { lpprCode: [{ type: 1, code: "1234567" }] }, ["medical-device"]],
    ["a device by category type", { catalogCategories: [{ id: "D", type: "medical_device" }] }, ["medical-device"]],
    ["a food supplement", { isANutritionSupplement: true }, ["food-supplement"]],
    ["a biocide (unknown is not)", { biocide: "yes" }, ["biocide"]],
    ["biocide unknown", { biocide: "unknown" }, ["other"]],
    ["a veterinary medicine", { catalogCategories: [{ id: "V", type: "veterinary_medicine" }] }, ["veterinary"]],
    ["a veterinary prescription medicine", { prescription: true, catalogCategories: [{ id: "V", type: "veterinary_medicine" }] }, ["prescription-medicine", "veterinary"]],
  ])("%s", (_, fields, expected) => {
    expect(productClasses(p(fields))).toEqual(expected);
  });
});

describe("channelRules: the most specific row decides", () => {
  const order = [
    row("google", "BE", "pharmacy-medicine", "allow"),
    row("google", "BE", "*", "deny"),
    row("google", "*", "pharmacy-medicine", "allow-if-certified: a"),
    row("*", "BE", "pharmacy-medicine", "allow-if-certified: b"),
    row("google", "*", "*", "allow-if-certified: c"),
    row("*", "BE", "*", "allow-if-certified: d"),
    row("*", "*", "pharmacy-medicine", "allow-if-certified: e"),
    row("*", "*", "*", "allow-if-certified: f"),
  ];
  it("in the documented order: channel country class, channel country *, channel * class, * country class, channel * *, * country *, * * class, * * *", () => {
    for (let i = 0; i < order.length; i++) {
      const decided = channelRules(order.slice(i), "google", "BE")["pharmacy-medicine"];
      expect(decided, `step ${i + 1}`).toBe(order[i]);
    }
  });
  it("a class no row covers is undefined (and decidePolicy lets it through)", () => {
    const rules = channelRules([row("*", "*", "biocide", "deny")], "google", "BE");
    expect(rules.other).toBeUndefined();
    expect(decidePolicy(p({}), ["other"], rules, new Set())).toEqual({ ok: true, carry: undefined });
  });
  it("later lists replace rows with the same key, others stay", () => {
    const merged = mergeRules([row("*", "*", "*", "allow"), row("google", "FR", "biocide", "deny")], [row("google", "FR", "biocide", "allow", { from: "mine" })]);
    expect(merged.map((r) => [r.verdict, r.from])).toEqual([["allow", "test"], ["allow", "mine"]]);
  });
});

describe("decidePolicy", () => {
  const rules = (...rows: PolicyRule[]) => channelRules([row("*", "*", "*", "allow"), ...rows], "google", "FR");
  it("any denying class leaves the product out, citing that class and row", () => {
    const verdict = decidePolicy(p({}), ["pharmacy-medicine", "reimbursable-medicine"], rules(row("*", "FR", "reimbursable-medicine", "deny", { rule: "L5122-6" })), new Set());
    expect(verdict).toMatchObject({ ok: false, klass: "reimbursable-medicine", why: "L5122-6", rule: { country: "FR" } });
  });
  it("allow-if-certified allows only a shop that lists the certification", () => {
    const r = rules(row("google", "FR", "pharmacy-medicine", "allow-if-certified: google-online-pharmacy-fr"));
    expect(decidePolicy(p({}), ["pharmacy-medicine"], r, new Set(["legitscript"]))).toMatchObject({ ok: false, why: /needs the certification google-online-pharmacy-fr/ });
    expect(decidePolicy(p({}), ["pharmacy-medicine"], r, new Set(["google-online-pharmacy-fr"]))).toEqual({ ok: true, carry: undefined });
  });
  it("limits: legal text, a required maximum quantity, banned terms as whole words; minAge and maxQuantity carried", () => {
    const r = rules(row("google", "FR", "pharmacy-medicine", "allow", { limits: { legalText: "deny", maxQuantity: "require", bannedTerms: ["ordonnance"], minAge: 16 } }));
    const decide = (fields: Record<string, unknown>) => decidePolicy(p(fields), ["pharmacy-medicine"], r, new Set());
    expect(decide({ requiresLegalText: true, maximumDispenseQuantity: 2 })).toMatchObject({ ok: false, why: /legal text/ });
    expect(decide({})).toMatchObject({ ok: false, why: /maximumDispenseQuantity/ });
    expect(decide({ maximumDispenseQuantity: 2, name: { fr: "Sirop (sur Ordonnance)" } })).toMatchObject({ ok: false, why: 'the name contains "ordonnance" (limits.bannedTerms)' });
    // Part of a longer word is not the word.
    expect(decide({ maximumDispenseQuantity: 2, name: { fr: "Ordonnancement" } })).toEqual({ ok: true, carry: { minAge: 16, maxQuantity: 2 } });
    const carry = rules(row("google", "FR", "pharmacy-medicine", "allow", { limits: { maxQuantity: "carry" } }));
    expect(decidePolicy(p({}), ["pharmacy-medicine"], carry, new Set())).toEqual({ ok: true, carry: undefined });
  });
});

describe("policy files", () => {
  let dir: string;
  const write = async (name: string, json: unknown) => {
    dir ??= await mkdtemp(join(tmpdir(), "pf-policy-"));
    await writeFile(join(dir, name), typeof json === "string" ? json : JSON.stringify(json));
    return join(dir, name);
  };
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const fileRow = (over: Record<string, unknown> = {}) => {
    const { from: _, ...r } = row("google", "BE", "pharmacy-medicine", "deny");
    return { ...r, ...over };
  };

  it("are refused with the JSON path and what was expected", async () => {
    const problems: PolicyProblem[] = [];
    const file = await write("bad.json", { policy: 1, rows: [fileRow(), fileRow({ verdict: "maybe", verified: "2026-02-30", class: "pill" })] });
    expect(await readPolicyFile(file, problems)).toEqual([]);
    expect(problems.map((x) => [x.path, x.message])).toEqual([
      ["rows[1].class", expect.stringMatching(/prescription-medicine/)],
      ["rows[1].verdict", expect.stringMatching(/deny, allow or "allow-if-certified: <certification>"/)],
      ["rows[1].verified", 'a date that exists, got "2026-02-30"'],
    ]);
  });

  it("refuse a key twice in one file, and in two files of one table", async () => {
    const problems: PolicyProblem[] = [];
    await write("a.json", { policy: 1, rows: [fileRow(), fileRow({ verdict: "allow" })] });
    await write("b.json", { policy: 1, rows: [fileRow({ country: "*" })] });
    await write("c.json", { policy: 1, rows: [fileRow({ country: "*" })] });
    await readPolicyDir(dir, problems);
    expect(problems.map((x) => [x.file.replace(`${dir}/`, ""), x.path, x.message])).toEqual(
      expect.arrayContaining([
        ["a.json", "rows[1]", '"google BE pharmacy-medicine" is also rows[0]: keep one row per channel, country and class'],
        ["c.json", "rows", expect.stringMatching(/^"google \* pharmacy-medicine" is also in .*b\.json/)],
      ]),
    );
  });

  it("rows past their re-check date", () => {
    const rows = [row("a", "*", "*", "allow", { recheck: "2026-11-28" }), row("b", "*", "*", "allow", { recheck: "2026-11-29" }), row("c", "*", "*", "allow", { recheck: undefined })];
    expect(overdueRules(rows, "2026-11-29").map((r) => r.channel)).toEqual(["a"]);
  });
});

describe("the shipped table (config/policy/)", () => {
  it("loads without a problem, every row sourced and dated, re-check after verified", async () => {
    const { SHIPPED_POLICY_DIR } = await import("../../src/policy/index.js");
    const problems: PolicyProblem[] = [];
    const rules = await readPolicyDir(SHIPPED_POLICY_DIR, problems);
    expect(problems).toEqual([]);
    expect(rules.length).toBeGreaterThan(20);
    for (const r of rules) {
      expect(r.recheck! > r.verified!, `${r.channel} ${r.country} ${r.class}`).toBe(true);
      expect(r.source, `${r.channel} ${r.country} ${r.class}`).toMatch(/^(https:\/\/|docs\/policy\.md)/);
    }
  });

  it("starts from the built-in rows (what mapping uses without a config), unchanged", async () => {
    const { BUILTIN_RULES, SHIPPED_POLICY_DIR } = await import("../../src/policy/index.js");
    const rules = await readPolicyDir(SHIPPED_POLICY_DIR, []);
    for (const builtin of BUILTIN_RULES) {
      const { from: _a, ...shipped } = rules.find((r) => r.channel === builtin.channel && r.country === builtin.country && r.class === builtin.class)!;
      const { from: _b, ...own } = builtin;
      expect(shipped).toEqual(own);
    }
  });

  it("names a marketplace of every preset, and denies prescription medicines on every marketplace in every country", async () => {
    const { SHIPPED_POLICY_DIR } = await import("../../src/policy/index.js");
    const { PRESET_NAMES } = await import("../../src/presets/index.js");
    const { policyChannelOf } = await import("../../src/presets/policy-channels.js");
    const rules = await readPolicyDir(SHIPPED_POLICY_DIR, []);
    for (const preset of PRESET_NAMES) {
      const market = policyChannelOf(preset);
      expect(rules.some((r) => r.channel === market), `${preset} -> ${market}`).toBe(true);
      for (const country of ["FR", "BE", "NL", "DE", "AT", "IT", "US"]) {
        expect(channelRules(rules, market, country)["prescription-medicine"]?.verdict, `${market} ${country}`).toBe("deny");
      }
    }
  });
});
