/**
 * `pharmafeed sandbox`: runs the local Catalogue API v4 until SIGINT/SIGTERM.
 * Prints the URL, both demo keys and a curl line to paste.
 */
import type { Argv, CommandModule } from "yargs";
import { PharmafeedError } from "../errors.js";
import { integerOption, MS, PORT, SEED } from "./flags.js";
import { BASIC_KEY, SandboxOptions, type SandboxHandle, type SandboxOptionsInput } from "../sandbox/options.js";

export interface SandboxArgs {
  host: string;
  port: number;
  products: number;
  seed: number;
  "key-id"?: string;
  "key-secret"?: string;
  "rate-limit": number;
  "rate-window-ms": number;
  "fail-first"?: number;
  "fail-status"?: number;
  "too-many-first"?: number;
  "drop-after-lines"?: number;
  "drop-times"?: number;
  "line-delay-ms"?: number;
  "stall-after-lines"?: number;
  "stall-ms"?: number;
  "corrupt-line"?: number;
  "chunk-bytes"?: number;
  "changes-per-hour"?: number;
  "new-per-hour"?: number;
  "cut-after-lines"?: number;
  "cut-times"?: number;
  "cut-shape"?: string;
  "total-offset"?: number;
  "no-final-newline"?: boolean;
  "repeat-id-every"?: number;
  log: boolean;
}

/** Flag values to SandboxOptions input; zod then checks ranges. */
export function sandboxOptionsFromArgs(args: SandboxArgs): SandboxOptionsInput {
  const faults = Object.fromEntries(
    Object.entries({
      failFirst: args["fail-first"],
      failStatus: args["fail-status"],
      tooManyFirst: args["too-many-first"],
      dropAfterLines: args["drop-after-lines"],
      dropTimes: args["drop-times"],
      lineDelayMs: args["line-delay-ms"],
      stallAfterLines: args["stall-after-lines"],
      stallMs: args["stall-ms"],
      corruptLine: args["corrupt-line"],
      chunkBytes: args["chunk-bytes"],
      cutAfterLines: args["cut-after-lines"],
      cutTimes: args["cut-times"],
      cutShape: args["cut-shape"],
      totalOffset: args["total-offset"],
      noFinalNewline: args["no-final-newline"],
      repeatIdEvery: args["repeat-id-every"],
    }).filter(([, v]) => v !== undefined),
  );
  return {
    host: args.host,
    port: args.port,
    products: args.products,
    seed: args.seed,
    ...(args["key-id"] !== undefined ? { keyId: args["key-id"] } : {}),
    ...(args["key-secret"] !== undefined ? { keySecret: args["key-secret"] } : {}),
    rateLimit: args["rate-limit"],
    rateWindowMs: args["rate-window-ms"],
    faults,
    // Either flag turns changes on; the other keeps its default.
    ...(args["changes-per-hour"] !== undefined || args["new-per-hour"] !== undefined
      ? { changes: { ...(args["changes-per-hour"] !== undefined ? { perHour: args["changes-per-hour"] } : {}), ...(args["new-per-hour"] !== undefined ? { newPerHour: args["new-per-hour"] } : {}) } }
      : {}),
    log: args.log,
  };
}

/** Parses with the contract's schema; a bad value is a usage error naming the flag's field. */
export function checkedOptions(input: SandboxOptionsInput): SandboxOptionsInput {
  const parsed = SandboxOptions.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PharmafeedError("USAGE", `invalid sandbox option ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
  }
  return input;
}

export function curlLine(handle: Pick<SandboxHandle, "url" | "keyId" | "keySecret">): string {
  return `curl -u ${handle.keyId}:${handle.keySecret} -H 'content-type: application/json' -d '{"filter":{"status":"active"},"sorting":{"id":"ASC"}}' ${handle.url}/v4/products/stream`;
}

export function banner(handle: SandboxHandle, products: number, seed: number): string {
  return [
    `Catalogue API v4 sandbox listening on ${handle.url} (${products} products, seed ${seed})`,
    `  main key:  ${handle.keyId} / ${handle.keySecret}  (all endpoints)`,
    `  basic key: ${BASIC_KEY.id} / ${BASIC_KEY.secret}  (no users/create, organizations/create)`,
    `Try:`,
    `  ${curlLine(handle)}`,
    "",
  ].join("\n");
}

export const sandboxCommand: CommandModule<object, SandboxArgs> = {
  command: "sandbox",
  describe: "Run a local Catalogue API v4 over a generated catalogue (Ctrl-C stops it)",
  builder: (yargs: Argv<object>) =>
    yargs
      .option("port", integerOption("port", PORT, { default: 8040, describe: "port to listen on (0 = any free port)" }))
      .option("host", { type: "string", default: "127.0.0.1", describe: "address to listen on" })
      .option("products", integerOption("products", { min: 0 }, { default: 2000, describe: "number of generated products" }))
      .option("seed", integerOption("seed", SEED, { default: 1, describe: "generator seed (same seed, same catalogue)" }))
      .option("key-id", { type: "string", describe: "API key id of the main demo key" })
      .option("key-secret", { type: "string", describe: "API key secret of the main demo key" })
      .option("rate-limit", integerOption("rate-limit", { min: 1 }, { default: 100, describe: "requests per key per window" }))
      .option("rate-window-ms", integerOption("rate-window-ms", MS(1), { default: 60000, describe: "rolling window of the rate limit" }))
      .option("fail-first", integerOption("fail-first", { min: 0 }, { describe: "fault: answer 5xx to the first K requests" }))
      .option("fail-status", integerOption("fail-status", { min: 500, max: 599, what: "an HTTP status" }, { describe: "fault: status of those answers (500-599, default 503)" }))
      .option("too-many-first", integerOption("too-many-first", { min: 0 }, { describe: "fault: answer 429 to the next K requests" }))
      .option("drop-after-lines", integerOption("drop-after-lines", { min: 1 }, { describe: "fault: cut the i-th stream after i*K lines" }))
      .option("drop-times", integerOption("drop-times", { min: 1 }, { describe: "fault: how many streams are cut (default 1)" }))
      .option("line-delay-ms", integerOption("line-delay-ms", MS(0), { describe: "fault: delay before each stream line" }))
      .option("stall-after-lines", integerOption("stall-after-lines", { min: 0 }, { describe: "fault: the first stream pauses after K lines" }))
      .option("stall-ms", integerOption("stall-ms", MS(0), { describe: "fault: length of that pause" }))
      .option("corrupt-line", integerOption("corrupt-line", { min: 0 }, { describe: "fault: send the line with this meta.index as broken JSON" }))
      .option("chunk-bytes", integerOption("chunk-bytes", { min: 1 }, { describe: "fault: write stream bodies in chunks of N bytes" }))
      .option("changes-per-hour", { type: "number", describe: "products change over time: expected changes per product per hour (0.01 = 1 %/h), from now on" })
      .option("new-per-hour", integerOption("new-per-hour", { min: 0 }, { describe: "products change over time: new products per hour (default 10)" }))
      .option("cut-after-lines", integerOption("cut-after-lines", { min: 1 }, { describe: "fault: the i-th stream stops after i*K lines (see --cut-shape)" }))
      .option("cut-times", integerOption("cut-times", { min: 1 }, { describe: "fault: how many streams stop short (default 1)" }))
      .option("cut-shape", { choices: ["mid-line-end", "close-delimited", "mid-line-reset", "short-end"] as const, describe: "fault: how the stream stops short" })
      .option("total-offset", integerOption("total-offset", { min: -1_000_000 }, { describe: "fault: meta.total written off by this many lines" }))
      .option("no-final-newline", { type: "boolean", describe: "fault: the last stream line goes out without its newline" })
      .option("repeat-id-every", integerOption("repeat-id-every", { min: 2 }, { describe: "fault: every K-th stream line repeats the id of the line before" }))
      .option("log", { type: "boolean", default: false, describe: "log one line per request to stderr" }) as unknown as Argv<SandboxArgs>,
  handler: async (args) => {
    const options = checkedOptions(sandboxOptionsFromArgs(args));
    // Loaded on demand, as every command's work is (commands/index.ts).
    const { startSandbox } = await import("../sandbox/server/server.js");
    const handle = await startSandbox(options).catch((error: unknown) => {
      // One line, not an UNEXPECTED stack: the usual cause is a sandbox still stopping on that port.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
        const why = code === "EADDRINUSE" ? "the port is in use (a sandbox or serve that is still stopping frees it in a moment); or choose another with --port" : (error as Error).message;
        throw new PharmafeedError("CONFIG_INVALID", `cannot listen on ${args.host}:${args.port}: ${code}: ${why}`, { cause: error });
      }
      throw error;
    });
    process.stdout.write(banner(handle, args.products, args.seed));
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        process.stdout.write("sandbox: stopping\n");
        handle.close().then(resolve, resolve);
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
  },
};
