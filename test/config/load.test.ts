import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { PharmafeedError } from "../../src/errors.js";
import { TEST_ENV, VALID_MAIN, VALID_TREE, writeTree, type Tree } from "./tree.js";
import { RESERVED_OUTPUT_NAMES } from "../../src/core/layout.js";

async function refusal(tree: Tree, env: Record<string, string> = TEST_ENV): Promise<PharmafeedError> {
  const root = await writeTree(tree);
  try {
    await loadConfig(join(root, "config/pharmafeed.json"), { env });
  } catch (error) {
    return error as PharmafeedError;
  }
  throw new Error("the config was accepted");
}

describe("loadConfig", () => {
  it("loads a valid tree: presets merged under the channel file, paths resolved, env substituted", async () => {
    const root = await writeTree(VALID_TREE);
    const config = await loadConfig(join(root, "config/pharmafeed.json"), { env: TEST_ENV });
    expect(config.outputDir).toBe(join(root, "out"));
    expect(config.source?.keyId).toBe("demo");
    expect(config.source?.baseUrl).toBe("https://api.catalogue.example");
    expect(config.query).toEqual({ filter: { status: "active" }, sorting: { id: "ASC" } });
    const [google, meta] = config.channels;
    expect(google).toMatchObject({ name: "google-fr", format: "xml", outputFile: "google-fr.xml", gzip: true });
    expect(google!.mapping.gtin.allowIdentifierExistsNo).toBe(true);
    expect(google!.mapping.title.maxLength).toBe(150);
    // Health rules come from the policy table (docs/policy.md), not from a preset's switch.
    expect(google!.mapping.eligibility.allowPrescription).toBeUndefined();
    expect(google!.mapping.policy.channel).toBe("google");
    expect(google!.mapping.policy.rows.find((r) => r.channel === "google" && r.class === "prescription-medicine")?.verdict).toBe("deny");
    expect(meta).toMatchObject({ name: "meta-nl", format: "csv", outputFile: "meta-nl.csv" });
    expect(meta!.mapping.title.maxLength).toBe(120); // channel file over preset
    expect(meta!.mapping.description.maxLength).toBe(9999); // preset over default
    expect(meta!.mapping.policy.channel).toBe("meta");
    expect(meta!.mapping.policy.rows.find((r) => r.channel === "meta" && r.class === "pharmacy-medicine")?.verdict).toBe("deny");
    expect(meta!.mapping.fallbackLocales).toEqual(["fr", "en"]);
  });

  it("says a channel file listed twice once, where it is listed (a review found it said to clash with itself six times)", async () => {
    const main = { ...VALID_MAIN, channels: [...VALID_MAIN.channels, "channels/google-fr.json", "./channels/google-fr.json"] };
    const error = await refusal({ ...VALID_TREE, "config/pharmafeed.json": main });
    const lines = error.message.split("\n").slice(1).map((l) => l.trim().replace(/^\S*\/config\//, ""));
    expect(lines).toEqual([
      expect.stringMatching(/^pharmafeed\.json: channels\[2\]: \S+\/channels\/google-fr\.json is listed twice \(also channels\[0\]\): list each channel file once$/),
      expect.stringMatching(/^pharmafeed\.json: channels\[3\]: \S+\/channels\/google-fr\.json is listed twice \(also channels\[0\]\): list each channel file once$/),
    ]);
  });

  it("lets CATALOGUE_API_BASE_URL override the configured source", async () => {
    const root = await writeTree(VALID_TREE);
    const config = await loadConfig(join(root, "config/pharmafeed.json"), { env: { ...TEST_ENV, CATALOGUE_API_BASE_URL: "http://127.0.0.1:8040" } });
    expect(config.source?.baseUrl).toBe("http://127.0.0.1:8040");
  });

  it("keeps only the channels asked for", async () => {
    const root = await writeTree(VALID_TREE);
    const config = await loadConfig(join(root, "config/pharmafeed.json"), { env: TEST_ENV, only: ["meta-nl"] });
    expect(config.channels.map((c) => c.name)).toEqual(["meta-nl"]);
  });

  it("lists every problem of every file at once, with file, JSON path, expected and found", async () => {
    const error = await refusal({
      ...VALID_TREE,
      "config/pharmafeed.json": { ...VALID_MAIN, outptu: {}, source: { ...VALID_MAIN.source, filter: { statuss: "active" } }, channels: [...VALID_MAIN.channels, "channels/bad.json", "channels/missing.json", "channels/broken.json"] },
      "config/channels/google-fr.json": { name: "google-fr", preset: "google", locale: "es", images: { minPixels: "500" } },
      "config/channels/bad.json": { name: "meta-nl", preset: "gooogle", titel: {} },
      "config/channels/broken.json": '{ "name": "x",\n  "preset": }',
    });
    expect(error.code).toBe("CONFIG_INVALID");
    const message = error.message;
    expect(message).toMatch(/pharmafeed\.json: \(root\): unknown key "outptu"/);
    expect(message).toMatch(/pharmafeed\.json: source\.filter: unknown key "statuss"/);
    expect(message).toMatch(/google-fr\.json: images\.minPixels: a number is needed, got "500"/);
    expect(message).toMatch(/google-fr\.json: locale: unknown locale "es", expected one of fr, nl, en, de/);
    expect(message).toMatch(/bad\.json: preset: .*got "gooogle"/);
    expect(message).toMatch(/bad\.json: \(root\): unknown key "titel"/);
    expect(message).toMatch(/missing\.json: cannot read \(no such file\)/);
    expect(message).toMatch(/broken\.json: not valid JSON at line 2, column/);
    expect(message).toMatch(/configuration refused \(\d+ problems\)/);
  });

  it("names unset environment variables and never prints a secret", async () => {
    const error = await refusal(VALID_TREE, { TEST_KEY_ID: "demo" });
    expect(error.message).toContain("pharmafeed.json: source.keySecret: environment variable TEST_KEY_SECRET is not set");
    const withSecret = await refusal({ ...VALID_TREE, "config/pharmafeed.json": { ...VALID_MAIN, source: { ...VALID_MAIN.source, baseUrl: "not a url" } } });
    expect(withSecret.message).toContain("source.baseUrl");
    expect(withSecret.message).not.toContain(TEST_ENV.TEST_KEY_SECRET);
  });

  it("refuses an image-processing channel without output.publicBaseUrl, and a channel writing 'images'", async () => {
    const error = await refusal({
      ...VALID_TREE,
      "config/pharmafeed.json": { ...VALID_MAIN, channels: [...VALID_MAIN.channels, "channels/img.json", "channels/named.json"] },
      "config/channels/img.json": { name: "img", preset: "meta", images: { process: { size: 800, format: "jpeg" } } },
      "config/channels/named.json": { name: "named", preset: "generic-csv", file: "images" },
    });
    expect(error.message).toMatch(/img\.json: images\.process: needs output\.publicBaseUrl/);
    expect(error.message).toMatch(/named\.json: file: "images" is a name pharmafeed uses itself/);
  });

  it("refuses a channel file named as any file or folder of the output directory's layout", async () => {
    // Each once: a feed called publish-journal.json or run-failure.json would be overwritten by the run itself.
    const names = [...RESERVED_OUTPUT_NAMES];
    expect(names).toEqual(expect.arrayContaining(["manifest.json", "run-failure.json", "publish-journal.json", "state", ".destinations-temporaries.json"]));
    const tree: Record<string, unknown> = { ...VALID_TREE, "config/pharmafeed.json": { ...VALID_MAIN, channels: [...VALID_MAIN.channels, ...names.map((_, i) => `channels/r${i}.json`)] } };
    names.forEach((file, i) => (tree[`config/channels/r${i}.json`] = { name: `r${i}`, preset: "generic-csv", file, gzip: false }));
    const error = await refusal(tree);
    for (const [i, file] of names.entries()) {
      // A hidden name (the lock, the ledger) is refused before, as no plain file name.
      expect(error.message).toContain(file.startsWith(".") ? `r${i}.json: file: a plain file name, got "${file}"` : `r${i}.json: file: "${file}" is a name pharmafeed uses itself`);
    }
  });

  it("refuses duplicate channel names and output files, and broken custom templates", async () => {
    const error = await refusal({
      ...VALID_TREE,
      "config/pharmafeed.json": { ...VALID_MAIN, channels: [...VALID_MAIN.channels, "channels/dup.json", "channels/custom.json"] },
      "config/channels/dup.json": { name: "google-fr", preset: "generic-csv", file: "meta-nl.csv" },
      "config/channels/custom.json": { name: "custom", preset: "generic-csv", template: "../my-layout" },
      "config/my-layout/layout.json": { format: "csv", columns: [{ header: "id", value: "{{nohelper id}}" }] },
    });
    expect(error.message).toMatch(/dup\.json: name: "google-fr" is also used by .*google-fr\.json/);
    expect(error.message).toMatch(/dup\.json: file: "meta-nl\.csv" is also written by .*meta-nl\.json/);
    expect(error.message).toMatch(/unknown helper "nohelper"/);
  });

  it("accepts config files, layouts and templates saved with a UTF-8 byte order mark", async () => {
    const bom = (value: unknown) => `\uFEFF${typeof value === "string" ? value : JSON.stringify(value)}`;
    const root = await writeTree({
      ...VALID_TREE,
      "config/pharmafeed.json": bom({ ...VALID_MAIN, channels: [...VALID_MAIN.channels, "channels/custom.json"] }),
      "config/channels/google-fr.json": bom(VALID_TREE["config/channels/google-fr.json"]),
      "config/channels/custom.json": bom({ name: "custom", preset: "generic-csv", template: "../my-layout" }),
      "config/my-layout/layout.json": bom({ format: "xml", header: "h.hbs", item: "i.hbs", footer: "f.hbs" }),
      "config/my-layout/h.hbs": bom("<feed>"),
      "config/my-layout/i.hbs": bom("<item>{{id}}</item>"),
      "config/my-layout/f.hbs": bom("</feed>"),
    });
    const config = await loadConfig(join(root, "config/pharmafeed.json"), { env: TEST_ENV });
    const custom = config.channels.find((c) => c.name === "custom")!;
    expect(custom.layout.templates).toEqual({ header: "<feed>", item: "<item>{{id}}</item>", footer: "</feed>" });
  });

  it("counts problems exactly: one Handlebars parse error is one problem, a layout's zod issues one each", async () => {
    const one = await refusal({
      ...VALID_TREE,
      "config/pharmafeed.json": { ...VALID_MAIN, channels: [...VALID_MAIN.channels, "channels/custom.json"] },
      "config/channels/custom.json": { name: "custom", preset: "generic-csv", template: "../my-layout" },
      "config/my-layout/layout.json": { format: "csv", columns: [{ header: "id", value: "{{#if id}}x" }] },
    });
    expect(one.message).toMatch(/^configuration refused \(1 problem\):/);
    expect(one.message).toMatch(/does not compile/);
    const two = await refusal({
      ...VALID_TREE,
      "config/pharmafeed.json": { ...VALID_MAIN, channels: [...VALID_MAIN.channels, "channels/custom.json"] },
      "config/channels/custom.json": { name: "custom", preset: "generic-csv", template: "../my-layout" },
      "config/my-layout/layout.json": { format: "csv", delimiter: ";;", columns: [{ header: "", value: "{{id}}" }] },
    });
    expect(two.message).toMatch(/^configuration refused \(2 problems\):/);
  });
});
