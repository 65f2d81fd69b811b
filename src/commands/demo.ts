/**
 * `pharmafeed demo`, what `npm start` runs: starts the sandbox in-process on a
 * free port, runs `generate` with the sample config (config/pharmafeed.json)
 * against it into output/, prints the summary and the files, and stops.
 * The sandbox replaces whatever source the config or the environment names.
 */
import type { Argv, CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";
import { createLogger, type LogFormat } from "../log.js";
import { reportRun } from "./generate.js";
import { withInterrupts } from "./interrupts.js";
import { integerOption, SEED } from "./flags.js";
import { curlLine } from "./sandbox.js";

interface DemoArgs {
  config: string;
  products: number;
  seed: number;
  output?: string;
  "log-format": LogFormat;
}

export const demoCommand: CommandModule<object, DemoArgs> = {
  command: "demo",
  describe: "Run generate with the sample config against an in-process sandbox (what npm start does)",
  builder: (yargs) =>
    yargs
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "config to run" })
      .option("products", integerOption("products", { min: 0 }, { default: 2000, describe: "products in the sandbox catalogue" }))
      .option("seed", integerOption("seed", SEED, { default: 1, describe: "seed of the sandbox catalogue" }))
      .option("output", { type: "string", describe: "output directory (default: from the config)" })
      .option("log-format", { choices: ["plain", "json"] as const, default: "plain" as LogFormat }) as unknown as Argv<DemoArgs>,
  handler: async (args) => {
    const [{ startSandbox }, { runGenerate }] = await Promise.all([import("../sandbox/server/server.js"), import("../pipeline/run.js")]);
    const sandbox = await startSandbox({ port: 0, products: args.products, seed: args.seed });
    try {
      const env = { ...process.env, CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
      const config = await loadConfig(args.config, { env });
      process.stdout.write(`Sandbox on ${sandbox.url} (${args.products} products, seed ${args.seed}); generating ${config.channels.length} feeds from ${args.config}\n\n`);
      const result = await withInterrupts((signal) =>
        runGenerate({
          config,
          ...(args.output ? { outputDir: args.output } : {}),
          logger: createLogger({ format: args["log-format"] }),
          tty: process.stderr.isTTY === true && args["log-format"] === "plain",
          signal,
        }),
      );
      reportRun(result);
      process.stdout.write(
        `\nManifest: ${result.outputDir}/manifest.json; excluded products per channel: ${result.outputDir}/reports/\n` +
          `To query a sandbox yourself: pharmafeed sandbox --port 8040, then\n  ${curlLine({ ...sandbox, url: "http://127.0.0.1:8040" })}\n`,
      );
    } finally {
      await sandbox.close();
    }
  },
};
