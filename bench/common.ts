/**
 * What the benchmarks share: their command-line flags, and the child processes they
 * measure in (one measured side per process, so that its peak RSS is its own).
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);

/** `--name value`, or `fallback`. */
export function flag(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

/** Whether `--name` is given (a switch without a value). */
export function hasFlag(name: string): boolean {
  return args.includes(`--${name}`);
}

/** A bench/ script (path relative to bench/) in a child process running TypeScript, with an IPC channel. */
export function startChild(script: string, argv: string[]): ChildProcess {
  return fork(fileURLToPath(new URL(script, import.meta.url)), argv, { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

/** The child's next message; rejects if it exits first. */
export function message<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve(m as T));
    child.once("exit", (code) => reject(new Error(`child exited with ${code}`)));
  });
}
