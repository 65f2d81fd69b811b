#!/usr/bin/env node
/**
 * Wiring only: yargs parses, a command module runs, and this file alone turns
 * errors into exit codes (see EXIT in errors.ts).
 */
// First: an older Node.js than the floor gets one line, before anything below is loaded.
import "./node-floor.js";
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { commands } from "./commands/index.js";
import { EXIT, exitCodeFor, PharmafeedError } from "./errors.js";
import { finalErrorFormat } from "./log.js";
import { VERSION } from "./version.js";

/** Flags that take several values, each given with its own flag (`--channel a --channel b`). */
const REPEATABLE = new Set(["channel", "id", "retire", "shops"]);

/**
 * A flag given twice, as `--x`, `--no-x` or `--x=v`: refused (yargs would make a value flag an
 * array, which crashed the command, and let a switch given twice pass unseen).
 */
function repeatedFlag(argv: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const token of argv) {
    if (token === "--") break;
    if (!token.startsWith("--") || token.length < 3) continue;
    const written = token.slice(2).split("=")[0]!;
    const name = written.replace(/^no-/, "");
    if (REPEATABLE.has(name)) continue;
    if (seen.has(name)) return written;
    seen.add(name);
  }
  return undefined;
}

export async function main(argv: string[]): Promise<number> {
  const repeated = repeatedFlag(argv);
  if (repeated !== undefined) return report(new PharmafeedError("USAGE", `--${repeated}: the flag is given twice; give it once`));
  let cli = yargs(argv)
    .scriptName("pharmafeed")
    .version(VERSION)
    .strict()
    .demandCommand(1, "a command is required")
    .recommendCommands()
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    // yargs would print the full help on a usage error; one line is enough in a cron log.
    // It calls this with a message for usage errors, with its own YError for a bad value found
    // while parsing a command's flags (coerce, requiresArg: src/commands/flags.ts), and with
    // the error a handler threw. The first two are usage errors (exit 2, one line, no stack).
    .fail((message: string | undefined, error: Error | undefined) => {
      if (error === undefined || error.name === "YError") throw new PharmafeedError("USAGE", error?.message ?? message ?? "invalid usage");
      throw error;
    })
    .help();
  for (const command of commands) cli = cli.command(command);
  try {
    await cli.parseAsync();
    return typeof process.exitCode === "number" ? process.exitCode : EXIT.OK;
  } catch (error) {
    return report(error);
  }
}

function report(error: unknown): number {
  const json = finalErrorFormat() === "json";
  const say = (code: string, message: string, exit: number) => {
    process.stderr.write(
      json
        ? `${JSON.stringify({ time: new Date().toISOString(), level: "error", msg: message, code, exitCode: exit })}\n`
        : `pharmafeed: ${code === "USAGE" ? "" : `${code}: `}${message}\n`,
    );
    return exit;
  };
  // generate's JSON log already ended with the run summary event, which carries this error and exit code.
  if (json && error instanceof PharmafeedError && error.context["reported"] === true) return exitCodeFor(error);
  if (error instanceof PharmafeedError && error.code === "USAGE") {
    // yargs' messages span lines ("Invalid values:\n  Argument: ..., Given: ..., Choices: ..."): all of it, on one line.
    const whole = error.message.split("\n").map((l) => l.trim()).filter(Boolean).join(" ");
    return say("USAGE", `${whole} (see --help)`, EXIT.USAGE);
  }
  if (error instanceof PharmafeedError) return say(error.code, error.message, exitCodeFor(error));
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return say("UNEXPECTED", `unexpected error: ${message}`, EXIT.FAILURE);
}

main(hideBin(process.argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`pharmafeed: ${String(error)}\n`);
    process.exitCode = EXIT.FAILURE;
  },
);
