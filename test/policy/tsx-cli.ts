/**
 * Runs the command line from its sources (`node --import tsx src/cli.ts ...`) as a child process:
 * `pharmafeed policy` is newer than the built dist/ the e2e helpers run (test/e2e/cli.ts), and
 * these tests must not rebuild dist/ under the other suites' feet. Children are tracked so that a
 * failed test never leaves one behind (killTsxChildren in afterAll).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ROOT, type CliResult } from "../e2e/cli.js";

const children = new Set<ChildProcess>();

export function runTsxCli(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  // The test runner's loader hooks have no business in the CLI under test.
  delete env["NODE_OPTIONS"];
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src", "cli.ts"), ...args], { cwd: options.cwd ?? ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export function killTsxChildren(): void {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
}
