/**
 * Every flag value checked, through the BUILT command line as cron runs it: a
 * bad value is one line on stderr naming the flag, the value and what was
 * expected, exit 2, never a stack trace.
 */
import { availableParallelism } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseInteger, PORT, workersFlag } from "../../src/commands/flags.js";
import { ensureBuilt, killAll, runCli } from "../e2e/cli.js";

beforeAll(() => ensureBuilt());
afterAll(() => killAll());

const maxWorkers = availableParallelism() * 4;

const BAD: [string[], RegExp][] = [
  [["generate", "--workers", "abc"], /--workers: expected a worker count from 0 to \d+ .*got "abc"/],
  [["generate", "--workers", "-1"], /--workers: expected a worker count from 0 to \d+ .*got "-1"/],
  [["generate", "--workers", String(maxWorkers + 1)], new RegExp(`--workers: expected a worker count from 0 to ${maxWorkers} .*got "${maxWorkers + 1}"`)],
  [["generate", "--workers", "1.5"], /--workers: .*got "1\.5"/],
  [["generate", "--workers", "2", "--workers", "3"], /--workers: the flag is given twice; give it once/],
  [["generate", "--workers"], /Not enough arguments following: workers/],
  [["serve", "--port", "abc"], /--port: expected a port from 0 to 65535 .*got "abc"/],
  [["serve", "--port", "65536"], /--port: expected a port from 0 to 65535 .*got "65536"/],
  [["serve", "--port", "0x50"], /--port: .*got "0x50"/],
  [["sandbox", "--port", "-3"], /--port: .*got "-3"/],
  [["sandbox", "--products", "1e3"], /--products: expected an integer >= 0, got "1e3"/],
  [["sandbox", "--fail-status", "404"], /--fail-status: expected an HTTP status from 500 to 599, got "404"/],
  [["sandbox", "--stall-ms", "3000000000"], /--stall-ms: expected milliseconds from 0 to 2147483647, got "3000000000"/],
  [["demo", "--seed", "x"], /--seed: expected an integer seed from -2147483648 to 2147483647, got "x"/],
  [["demo", "--products", ""], /--products: expected an integer >= 0, got nothing/],
  [["diff", "--limit", "abc"], /--limit: expected a count of ids >= 0, got "abc"/],
  [["explain", "--limit", "0", "doliprane"], /--limit: expected a count of products >= 1, got "0"/],
  [["preview", "--limit", "1.5", "--channel", "x"], /--limit: expected a count of items >= 1, got "1\.5"/],
  [["rollback", "--channel", "x", "--to", "2026-11-27", "--release"], /Arguments release and to are mutually exclusive/],
  // yargs' own messages, whole: the choices are part of what the user needs.
  [["generate", "--log-format", "yaml"], /Invalid values: Argument: log-format, Given: "yaml", Choices: "plain", "json"/],
  [["generate", "--bogus"], /Unknown argument: bogus/],
  // A flag given twice (issue 23.5: a value flag crashed with a stack trace, a switch passed unseen).
  [["validate", "--config", "a.json", "--config=b.json"], /--config: the flag is given twice; give it once/],
  [["validate", "--no-credentials", "--no-credentials"], /--no-credentials: the flag is given twice/],
  [["generate", "--dry-run", "--no-dry-run"], /--no-dry-run: the flag is given twice/],
];

describe("flag values", () => {
  it.each(BAD)("%j: one line, exit 2, no stack", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^pharmafeed: .*\(see --help\)\n$/);
    expect(result.stderr).not.toMatch(/\n\s+at |YError|ZodError/);
    expect(result.stdout).toBe("");
  });

  it("reads integers exactly: what the range allows, nothing yargs would have guessed", () => {
    expect(parseInteger("port", "8080", PORT)).toBe(8080);
    expect(parseInteger("port", 0, PORT)).toBe(0);
    expect(parseInteger("workers", "0", workersFlag(2))).toBe(0);
    expect(parseInteger("workers", "8", workersFlag(2))).toBe(8);
    expect(() => parseInteger("workers", "9", workersFlag(2))).toThrow(/from 0 to 8/);
    expect(() => parseInteger("workers", "1", workersFlag(1))).not.toThrow();
    expect(() => parseInteger("port", " 80", PORT)).toThrow(/got " 80"/);
    expect(() => parseInteger("port", "99999999999999999999", PORT)).toThrow(/expected a port/);
  });
});
