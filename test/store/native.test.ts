/**
 * Which better-sqlite3 each Node.js line loads, and the one line a command says when
 * the native module was built for another Node.js. Runs on the machine's Node.js in the
 * whole suite and on 22, 24 and 26 in scripts/test-lines.sh: there the Node 20 build of
 * better-sqlite3 12 (better-sqlite3-node20) gives a real "built for another Node.js" error.
 */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isPharmafeedError } from "../../src/errors.js";
import { nativeModuleError, openDatabase, SQLITE_PACKAGE } from "../../src/store/native.js";
import { openStore } from "../../src/store/sqlite.js";
import { ensureBuilt, killAll, runCli } from "../e2e/cli.js";

const require = createRequire(import.meta.url);
const major = Number(process.versions.node.split(".")[0]);
const node20Build = join(dirname(require.resolve("better-sqlite3-node20/package.json")), "build");
/** The module version `npm ci` built better-sqlite3-node20 for (node-gyp's record of it). */
const node20Abi = /"node_module_version": (\d+)/.exec(readFileSync(join(node20Build, "config.gypi"), "utf8"))?.[1];
/** A newer Node.js than the one that built better-sqlite3-node20 (CI: built on 20, run on 22, 24, 26). */
const otherAbi = major >= 22 && node20Abi !== undefined && node20Abi !== process.versions.modules;

/** The error Node.js throws for an addon of another ABI, as `process.dlopen` words it. */
function dlopenError(file: string): unknown {
  try {
    process.dlopen({ exports: {} }, file);
  } catch (error) {
    return error;
  }
  return undefined;
}

afterAll(() => killAll());

describe("store/native: better-sqlite3 per Node.js line", () => {
  it("loads better-sqlite3 13 (Node-API) from Node.js 22 on, and 12 on Node.js 20; both read and write", () => {
    const { version } = require(`${SQLITE_PACKAGE}/package.json`) as { version: string };
    expect(Number(version.split(".")[0])).toBe(major >= 22 ? 13 : 12);
    const db = openDatabase(":memory:");
    db.exec("CREATE TABLE t (n INTEGER)");
    db.prepare("INSERT INTO t VALUES (?)").run(42);
    expect(db.prepare("SELECT n FROM t").pluck().get()).toBe(42);
    db.close();
  });

  it.runIf(otherAbi)("a module built for another Node.js is NATIVE_MODULE: one line, the module versions and `npm rebuild`", () => {
    // better-sqlite3-node20 is compiled by `npm ci` on the machine's Node.js (20): another ABI than this one.
    const error = nativeModuleError(dlopenError(join(node20Build, "Release", "better_sqlite3.node")), "better-sqlite3-node20");
    expect(error?.code).toBe("NATIVE_MODULE");
    expect(error?.message).not.toContain("\n");
    expect(error?.message).toMatch(/^better-sqlite3-node20's native module was built for another Node\.js \(module version \d+; Node\.js v\d+\S+ needs \d+\): run `npm rebuild better-sqlite3-node20` with this Node\.js/);
  });

  it.runIf(otherAbi)("explain says NATIVE_MODULE in one line with the fix, not 'not a readable store' (exit 1)", async () => {
    ensureBuilt();
    const output = await mkdtemp(join(tmpdir(), "pf-native-"));
    await mkdir(join(output, "state"));
    await writeFile(join(output, "state", "explain.sqlite"), "");
    // The Node 20 build, loaded by this newer Node.js: a real module of another Node.js.
    const result = await runCli(["explain", "--config", "config/pharmafeed.json", "--output", output, "P1"], { env: { PHARMAFEED_SQLITE: "better-sqlite3-node20" } });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^pharmafeed: NATIVE_MODULE: better-sqlite3-node20's native module was built for another Node\.js \(module version \d+; Node\.js v[\d.]+ needs \d+\): run `npm rebuild better-sqlite3-node20` with this Node\.js[^\n]*\n$/);
  });

  it("words Node's ABI message the same way on every line (here the text Node.js 24 gives for a Node 20 build)", () => {
    const cause = Object.assign(
      new Error(
        "The module '/x/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\n" +
          "NODE_MODULE_VERSION 137. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
      ),
      { code: "ERR_DLOPEN_FAILED" },
    );
    const error = nativeModuleError(cause, "better-sqlite3", "v24.21.0");
    expect(error?.message).toBe(
      "better-sqlite3's native module was built for another Node.js (module version 115; Node.js v24.21.0 needs 137): " +
        "run `npm rebuild better-sqlite3` with this Node.js, with no npm nodedir set for another Node.js (npm config get nodedir)",
    );
    expect(error?.context).toMatchObject({ built: "115", needed: "137" });
  });

  it("a module that cannot be opened at all is NATIVE_MODULE too; any other error is left alone", async () => {
    const missing = nativeModuleError(dlopenError(join(tmpdir(), "no-such-addon.node")), "better-sqlite3");
    expect(missing?.code).toBe("NATIVE_MODULE");
    expect(missing?.message).toMatch(/^better-sqlite3's native module cannot be loaded by Node\.js v\S+ \(.*no-such-addon\.node.*\): run `npm rebuild better-sqlite3`/);
    // A damaged store is the file's problem, not the module's: openStore says STORE_INVALID.
    const file = join(await mkdtemp(join(tmpdir(), "pf-native-")), "s.sqlite");
    await writeFile(file, "this is not a database, just text long enough to be read as a header".repeat(20));
    let thrown: unknown;
    try {
      openStore(file, { name: "test", version: 1 });
    } catch (error) {
      thrown = error;
    }
    expect(isPharmafeedError(thrown, "STORE_INVALID")).toBe(true);
    expect(nativeModuleError(new Error("file is not a database"))).toBeUndefined();
  });
});
