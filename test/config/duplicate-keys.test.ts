/**
 * A key written twice in one object of a config file is refused with its file, JSON path, line and
 * column: JSON.parse keeps the last one without a word (a review found a policy row's "deny" then
 * "allow" accepted as allow, and a main file's "offers" written twice).
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { duplicateKeys } from "../../src/core/json-file.js";
import { TEST_ENV, VALID_MAIN, VALID_TREE, writeTree } from "./tree.js";

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

async function refusal(tree: Record<string, unknown>): Promise<string> {
  const root = await writeTree(tree);
  roots.push(root);
  const error = await loadConfig(join(root, "config", "pharmafeed.json"), { env: TEST_ENV, checkCredentials: false }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error, "the config was accepted").toBeDefined();
  return error!.message.replace(root, "<root>");
}

describe("duplicateKeys", () => {
  it("finds a key written twice in one object, with its path, line and column; the same key in two objects is fine", () => {
    const text = '{\n  "a": 1,\n  "rows": [{ "verdict": "deny", "x": {"verdict": 1}, "verdict": "allow" }],\n  "b": { "a": 2 },\n  "a": 3\n}';
    expect(duplicateKeys(text)).toEqual([
      { path: "rows[0].verdict", line: 3, column: 54 },
      { path: "a", line: 5, column: 3 },
    ]);
    expect(duplicateKeys(JSON.stringify({ a: { b: 1 }, b: { a: 1 } }))).toEqual([]);
  });
});

describe("a config file with a key written twice", () => {
  it("the main file: refused with the file, the path and where", async () => {
    const text = JSON.stringify(VALID_MAIN, null, 2).replace('"output": {', '"offers": { "file": "a.csv" },\n  "offers": { "file": "b.csv" },\n  "output": {');
    const message = await refusal({ ...VALID_TREE, "config/pharmafeed.json": text, "config/a.csv": "id;price\n", "config/b.csv": "id;price\n" });
    expect(message).toMatch(/<root>\/config\/pharmafeed\.json: offers: written twice \(again at line \d+, column 3\): JSON would keep the last one without a word; write it once/);
  });

  it("a policy file: a row's verdict deny then allow is refused, not read as allow", async () => {
    const row = '{ "channel": "google", "country": "FR", "class": "pharmacy-medicine", "verdict": "deny", "verdict": "allow", "source": "https://policy.example/x", "verified": "2026-11-01", "recheck": "2027-05-01", "rule": "ours" }';
    const main = { ...VALID_MAIN, policy: { files: ["policy/ours.json"] } };
    const message = await refusal({ ...VALID_TREE, "config/pharmafeed.json": main, "config/policy/ours.json": `{ "policy": 1, "rows": [${row}] }` });
    expect(message).toMatch(/<root>\/config\/policy\/ours\.json: rows\[0\]\.verdict: written twice \(again at line 1, column \d+\): JSON would keep the last one without a word; write it once$/m);
  });
});
