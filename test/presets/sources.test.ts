/**
 * The sources trail (issue 13, item 10): every field a built-in preset writes
 * has its public source in src/presets/sources.ts, and the README's table is
 * that table. UPDATE_README=1 npx vitest run test/presets/sources.test.ts
 * rewrites the README block from the code.
 */
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PRESETS, PRESET_NAMES } from "../../src/presets/index.js";
import { DOCUMENTS, PRESET_FIELDS, sourcesMarkdown } from "../../src/presets/sources.js";
import { BUILTIN_TEMPLATES, loadLayout } from "../../src/writers/load-layout.js";

// The reference moved from the README to docs/ pages; the table is in the configuration page.
const README = fileURLToPath(new URL("../../docs/configuration.md", import.meta.url));
const START = "<!-- preset-sources:start (rendered from src/presets/sources.ts) -->\n";
const END = "<!-- preset-sources:end -->";

/** The names one layout writes per item: CSV/TSV headers, or the item template's elements. */
async function writtenFields(layoutName: string): Promise<string[]> {
  const dir = `${BUILTIN_TEMPLATES}/${layoutName}`;
  const layout = await loadLayout(dir);
  const spec = layout.spec;
  if (spec.format === "xml") {
    const template = await readFile(`${dir}/${spec.item}`, "utf8");
    const names = [...template.matchAll(/<([A-Za-z_][\w:.-]*)(\{\{[^}]*\}\})?[\s>/]/g)].map((m) => m[1]! + (m[2] ? "N" : ""));
    return [...new Set(names)].filter((n) => n !== "item" && n !== "product");
  }
  if ("columns" in spec && spec.columns) return spec.columns.map((c) => c.header);
  return ["(every FeedItem field)"];
}

describe("preset sources", () => {
  it("has the fields of every preset", () => {
    expect(Object.keys(PRESET_FIELDS).sort()).toEqual([...PRESET_NAMES].sort());
  });

  it.each(PRESET_NAMES)("%s: every field its layout writes has a source", async (name) => {
    const documented = new Set(PRESET_FIELDS[name]!.map((s) => s.field));
    const missing = (await writtenFields(PRESETS[name]!.layout)).filter((field) => !documented.has(field));
    expect(missing, `add these fields of ${name} to src/presets/sources.ts with their public source`).toEqual([]);
  });

  it("cites a document for every field but the ones marked unconfirmed, and every document has an address", () => {
    for (const [preset, fields] of Object.entries(PRESET_FIELDS)) {
      for (const s of fields) {
        if (s.evidence !== "unconfirmed") expect(s.docs.length, `${preset} ${s.field}`).toBeGreaterThan(0);
        for (const d of s.docs) expect(DOCUMENTS[d], d).toBeDefined();
      }
    }
    for (const [key, doc] of Object.entries(DOCUMENTS)) if (key !== "PF") expect(doc.url, key).toMatch(/^https?:\/\//);
  });

  it("is the table docs/configuration.md shows", async () => {
    const readme = await readFile(README, "utf8");
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    expect(start, "docs/configuration.md lacks the preset sources block").toBeGreaterThan(-1);
    const block = readme.slice(start + START.length, end);
    if (process.env["UPDATE_README"] === "1") {
      await writeFile(README, readme.slice(0, start + START.length) + sourcesMarkdown() + readme.slice(end));
      return;
    }
    expect(block, "UPDATE_README=1 npx vitest run test/presets/sources.test.ts rewrites it").toBe(sourcesMarkdown());
  });
});
