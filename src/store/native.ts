/**
 * Which better-sqlite3 this Node.js gets, and one clear line when its native module
 * cannot be loaded.
 *
 * better-sqlite3 12 and older wrap their objects in node::ObjectWrap, whose header in
 * Node.js 24.19+ and 26 registers an environment cleanup hook per object and removes it
 * in the destructor. A Statement collected by a GC that runs with no V8 context entered
 * (an idle or allocation GC in a microtask checkpoint) then finds no Environment and
 * aborts the process (`Assertion failed: (env) != nullptr`, exit 134): 4 `npm start` of
 * 4 on 24.21.0. better-sqlite3 13 is built on Node-API (node-addon-api), which has no
 * such hook, and ships prebuilt binaries for every Node-API Node.js; but it needs
 * Node.js 22 (it crashes on 20). So Node.js 22 and later load 13, and Node.js 20, while
 * machines still have it, loads 12 (installed under the alias better-sqlite3-node20 and
 * compiled for that Node.js; Node 20's ObjectWrap has no hook). Both have the same API.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import { PharmafeedError } from "../errors.js";

const require = createRequire(import.meta.url);

const PACKAGES = ["better-sqlite3", "better-sqlite3-node20"] as const;

/**
 * The package this Node.js loads: better-sqlite3 13 from Node.js 22 on, 12 on Node.js 20.
 * PHARMAFEED_SQLITE names one of the two instead (test/store/native.test.ts loads the Node 20
 * build on a newer Node.js with it, to meet a real module of another Node.js).
 */
export const SQLITE_PACKAGE: (typeof PACKAGES)[number] =
  PACKAGES.find((p) => p === process.env["PHARMAFEED_SQLITE"]) ?? (Number(process.versions.node.split(".")[0]) >= 22 ? "better-sqlite3" : "better-sqlite3-node20");

let driver: typeof BetterSqlite3 | undefined;

/**
 * Opens a SQLite file. A native module built for another Node.js (or not built at all)
 * is NATIVE_MODULE, one line with the fix, whichever command met it.
 */
export function openDatabase(file: string, options?: BetterSqlite3.Options): BetterSqlite3.Database {
  try {
    driver ??= require(SQLITE_PACKAGE) as typeof BetterSqlite3;
    return new driver(file, options);
  } catch (cause) {
    throw nativeModuleError(cause) ?? cause;
  }
}

/** NATIVE_MODULE for an error of loading a native module, undefined for any other error. */
export function nativeModuleError(cause: unknown, pkg = SQLITE_PACKAGE, node = process.version): PharmafeedError | undefined {
  const code = (cause as { code?: unknown } | undefined)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  const abi = /NODE_MODULE_VERSION (\d+)\.\s+This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(message);
  const fix = `run \`npm rebuild ${pkg}\` with this Node.js`;
  if (abi) {
    // npm builds against the headers its `nodedir` names: a machine-wide one for another Node.js builds the wrong one again.
    const what = `${pkg}'s native module was built for another Node.js (module version ${abi[1]}; Node.js ${node} needs ${abi[2]})`;
    return new PharmafeedError("NATIVE_MODULE", `${what}: ${fix}, with no npm nodedir set for another Node.js (npm config get nodedir)`, {
      cause,
      context: { package: pkg, built: abi[1], needed: abi[2] },
    });
  }
  if (code === "ERR_DLOPEN_FAILED" || /Could not locate the bindings file|better_sqlite3\.node/.test(message)) {
    const first = message.split("\n")[0]!.trim();
    return new PharmafeedError("NATIVE_MODULE", `${pkg}'s native module cannot be loaded by Node.js ${node} (${first}): ${fix}`, { cause, context: { package: pkg } });
  }
  return undefined;
}
