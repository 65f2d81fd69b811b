/**
 * Runs the BUILT command line (dist/cli.js) as a child process, the way cron
 * does, and keeps track of every child so that a failing test never leaves one
 * behind (killAll in afterAll).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { onTestFailed } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

/**
 * Builds dist/ when it is missing (a fresh clone running vitest directly);
 * `npm test` builds before vitest, so normally this does nothing.
 */
export function ensureBuilt(): void {
  if (existsSync(CLI)) return;
  try {
    execFileSync(process.execPath, [fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.build.json"], {
      cwd: ROOT,
      stdio: "pipe",
    });
  } catch (error) {
    const output = (error as { stdout?: Buffer }).stdout?.toString() ?? String(error);
    throw new Error(`dist/cli.js is missing and \`npm run build\` failed; the e2e tests need the built CLI:\n${output}`, { cause: error });
  }
  if (!existsSync(CLI)) throw new Error("dist/cli.js is still missing after `npm run build`; check tsconfig.build.json");
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  done: Promise<CliResult>;
}

const children = new Set<ChildProcess>();

/** The environment the CLI finds the sandbox through (CATALOGUE_API_BASE_URL wins over the config). */
export function sandboxEnv(sandbox: SandboxHandle): Record<string, string> {
  return { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
}

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  // The test runner's loader hooks have no business in the CLI under test.
  delete env["NODE_OPTIONS"];
  return env;
}

export interface CliOptions {
  env?: Record<string, string>;
  cwd?: string;
  /**
   * Kills the child after this long. None by default: on a loaded machine a run may take
   * many times its usual time, and the test's own timeout (vitest.config.ts) plus killAll()
   * already stop a child that hangs. Only for a test whose subject is a hang.
   */
  timeoutMs?: number;
}

export function startCli(args: string[], options: CliOptions = {}): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env: childEnv(options.env ?? {}), stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
  const done = new Promise<CliResult>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, stderr: () => stderr, done };
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).done;
}

/** Kills whatever a failed test left running. */
export function killAll(): void {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
}

/**
 * Polls `condition` every 10 ms until it holds. No time budget of its own: what it waits for
 * is an event (a line logged, a request received, a file written), and on a loaded machine it
 * may come many times later than usual. A wait for an event that never comes is stopped by the
 * test's own timeout (vitest.config.ts); the failed test's report then names `what`.
 */
export async function waitFor(condition: () => boolean, what: string): Promise<void> {
  let waiting = true;
  onTestFailed(() => {
    if (waiting) console.error(`the test failed while waiting for ${what}`);
  });
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
  waiting = false;
}
