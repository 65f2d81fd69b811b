/**
 * The start-up check of the CLI: a Node.js older than package.json's `engines` gets one
 * line and exit 1 before anything else is loaded. The BUILT CLI runs with its Node.js
 * version reported as older (a preloaded module redefines process.versions.node, which
 * is all the check reads), as on a machine with an old Node.js.
 */
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { NODE_FLOOR, nodeFloorProblem } from "../../src/node-floor.js";
import { CLI, ensureBuilt, ROOT } from "../e2e/cli.js";

const olderNode = (version: string) => ["--import", `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`];

beforeAll(() => ensureBuilt());

describe("node floor", () => {
  it("is the floor package.json's engines names", async () => {
    const engines = (JSON.parse(await readFile("package.json", "utf8")) as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`>=${NODE_FLOOR.major}.${NODE_FLOOR.minor}`);
    expect(nodeFloorProblem(process.versions.node)).toBeUndefined();
    expect(nodeFloorProblem(`${NODE_FLOOR.major}.${NODE_FLOOR.minor}.0`)).toBeUndefined();
    expect(nodeFloorProblem(`${NODE_FLOOR.major}.${NODE_FLOOR.minor - 1}.9`)).toMatch(/is too old/);
  });

  it("an older Node.js gets one line naming both versions and exit 1, for any command", () => {
    for (const args of [["--version"], ["explain", "--config", "no-such.json", "P1"]]) {
      // The check exits before any work: nothing to wait on but the exit itself.
      const result = spawnSync(process.execPath, [...olderNode("18.20.4"), CLI, ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
      expect(result.status, result.stderr).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        "pharmafeed: Node.js 18.20.4 is too old: pharmafeed needs 20.19 or later (tested on 20, 22, 24, 26); install a newer Node.js, then run `npm ci`\n",
      );
    }
  });
});
