/** The code fingerprint covers the installed libraries: an upgrade of one that writes rows makes a refresh map everything. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dependencyFingerprint, dependencyVersions } from "../../src/rowcache/fingerprint.js";

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

function pkg(dir: string, json: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(json));
}

/** An app that depends on a, which depends on b (hoisted), and an unrelated package c lying in node_modules. */
function tree(): string {
  const root = mkdtempSync(join(tmpdir(), "pf-deps-"));
  roots.push(root);
  pkg(root, { name: "app", version: "1.0.0", dependencies: { a: "^1" } });
  pkg(join(root, "node_modules", "a"), { name: "a", version: "1.0.0", dependencies: { b: "^2" } });
  pkg(join(root, "node_modules", "b"), { name: "b", version: "2.0.0" });
  pkg(join(root, "node_modules", "c"), { name: "c", version: "9.0.0" });
  return root;
}

describe("dependencyFingerprint", () => {
  it("changes when a direct or a transitive dependency is upgraded, or one is installed nested", () => {
    const root = tree();
    const before = dependencyFingerprint(root);
    expect(dependencyFingerprint(root)).toBe(before);
    pkg(join(root, "node_modules", "b"), { name: "b", version: "2.0.1" });
    const transitive = dependencyFingerprint(root);
    expect(transitive).not.toBe(before);
    pkg(join(root, "node_modules", "a"), { name: "a", version: "1.1.0", dependencies: { b: "^2" } });
    expect(dependencyFingerprint(root)).not.toBe(transitive);
    const hoisted = dependencyFingerprint(root);
    // a gets its own copy of b: what a loads is now that one.
    pkg(join(root, "node_modules", "a", "node_modules", "b"), { name: "b", version: "3.0.0" });
    expect(dependencyFingerprint(root)).not.toBe(hoisted);
  });

  it("ignores packages nothing loads", () => {
    const root = tree();
    const before = dependencyFingerprint(root);
    pkg(join(root, "node_modules", "c"), { name: "c", version: "10.0.0" });
    expect(dependencyFingerprint(root)).toBe(before);
  });

  it("covers this project's own row-writing libraries and what they load", () => {
    const names = dependencyVersions(join(import.meta.dirname, "..", "..")).map((line) => line.split(" ")[1]!.replace(/@[^@]*$/, ""));
    expect(names).toEqual(expect.arrayContaining(["htmlparser2", "csv-stringify", "entities", "handlebars", "fast-xml-parser", "domhandler"]));
    // Development tools are not loaded by a run.
    expect(names).not.toContain("vitest");
  });
});
