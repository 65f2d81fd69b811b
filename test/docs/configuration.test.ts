/**
 * The key tables of the docs name every key of the schemas they describe: the main file's table
 * of docs/configuration.md (it had lost `shops`, `destinations` and `snapshot`) and the shop
 * file's of docs/shops.md. Top-level keys only: nested ones are described with their section.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MainConfig } from "../../src/config/schema.js";
import { ShopFile } from "../../src/config/shop-file.js";
import { ROOT } from "../e2e/cli.js";

/** The top-level keys named in the first column of the first `| Key |` table after `heading`. */
function documentedKeys(file: string, heading: string): Set<string> {
  const text = readFileSync(join(ROOT, file), "utf8");
  const at = text.indexOf(heading);
  expect(at, `${heading} in ${file}`).toBeGreaterThan(-1);
  const lines = text.slice(at).split("\n");
  const start = lines.findIndex((line) => /^\| Key \|/i.test(line));
  expect(start, `a | Key | table after ${heading} in ${file}`).toBeGreaterThan(-1);
  const keys = new Set<string>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const first = line.split("|")[1] ?? "";
    for (const [, key] of first.matchAll(/`([A-Za-z]+)[^`]*`/g)) keys.add(key!);
  }
  return keys;
}

describe("the docs' key tables", () => {
  it("docs/configuration.md names every key of the main file", () => {
    const documented = documentedKeys("docs/configuration.md", "### Main file");
    expect(Object.keys(MainConfig.shape).filter((key) => !documented.has(key))).toEqual([]);
  });

  it("docs/shops.md names every key of a shop file", () => {
    const documented = documentedKeys("docs/shops.md", "A shop file holds");
    expect(Object.keys(ShopFile.shape).filter((key) => !documented.has(key))).toEqual([]);
  });
});
