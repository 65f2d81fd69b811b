/**
 * `pharmafeed merchant register --developer-email <you>`: the one-time developer
 * registration of the service account's Cloud project with each account (src/merchant/register.ts).
 *
 * `pharmafeed merchant sync`: reads back what Google did with every product of each feed
 * that has a Merchant Center account (statuses, item issues, account issues) into
 * output/state/merchant.sqlite and reports/google-issues.csv. A run does the same after
 * publishing (merchant.readAfterRun); docs/google-merchant.md.
 */
import type { Argv, CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";
import { ERROR_CODES, type ErrorCode, PharmafeedError } from "../errors.js";
import { createLogger, type LogFormat } from "../log.js";
import { withInterrupts } from "./interrupts.js";
import { SHOP_OPTION } from "./flags.js";

interface MerchantArgs {
  action: "sync" | "register";
  "developer-email"?: string;
  config: string;
  /** A config with shops: the shop (docs/shops.md). */
  shop?: string;
  output?: string;
  channel?: string[];
  "log-format": LogFormat;
}

export const merchantCommand: CommandModule<object, MerchantArgs> = {
  command: "merchant <action>",
  describe: "Google Merchant Center: sync reads back product statuses and issues; register links the service account's project once",
  builder: (yargs) =>
    yargs
      .positional("action", { choices: ["sync", "register"] as const, demandOption: true, describe: "sync: read statuses and issues back from Google; register: the one-time developer registration" })
      .option("developer-email", { type: "string", describe: "register: the Google account e-mail Google writes to about the API (not a service account)" })
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("shop", SHOP_OPTION)
      .option("output", { type: "string", describe: "output directory (default: from the config)" })
      .option("channel", { type: "string", array: true, describe: "only these channels" })
      .option("log-format", { choices: ["plain", "json"] as const, default: "plain" as LogFormat, describe: "log lines on stderr" }) as unknown as Argv<MerchantArgs>,
  handler: async (args) => {
    const config = await loadConfig(args.config, { ...(args.shop === undefined ? {} : { shop: args.shop }), checkCredentials: false, notify: false, ...(args.channel ? { only: args.channel } : {}) });
    const channels = config.channels.flatMap((c) => (c.merchant ? [c.merchant] : []));
    if (args.action === "register" && channels.length === 0) throw new PharmafeedError("USAGE", "no channel has a `merchant` section (a Merchant Center account): see docs/google-merchant.md");
    // Nothing configured is nothing to do, not a command-line mistake (exit 0, one line).
    if (channels.length === 0) {
      process.stdout.write(`nothing to sync: no ${args.channel ? "chosen " : ""}channel of ${config.file} has a \`merchant\` section (a Merchant Center account): see docs/google-merchant.md\n`);
      return;
    }
    if (args.action === "register") {
      if (!args["developer-email"]) throw new PharmafeedError("USAGE", "merchant register needs --developer-email <your Google account e-mail>");
      const { registerAccounts } = await import("../merchant/register.js");
      process.stdout.write(`${(await registerAccounts(channels, args["developer-email"])).join("\n")}\n`);
      return;
    }
    const [{ syncMerchant }, { summaryLines }, { sendMerchantAlerts }, { takeMerchantLock }] = await Promise.all([
      import("../merchant/sync.js"),
      import("../merchant/summary.js"),
      import("../merchant/run-hook.js"),
      import("../merchant/lock.js"),
    ]);
    const logger = createLogger({ format: args["log-format"] });
    // By hand, in a shell without the webhooks' variables: the read-back goes, its alerts do not (said).
    for (const line of config.skipped ?? []) logger.warn("no alerts from this sync", { why: line });
    const outputDir = args.output ?? config.outputDir;
    // Google's own lock, never the output lock: a generate may run meanwhile.
    const lock = await takeMerchantLock(outputDir);
    if (!lock) throw new PharmafeedError("LOCK_HELD", `another process is talking to Google for ${outputDir} (state/.merchant.lock): try again once it is done`);
    // SIGTERM and SIGINT stop the read-back: the temporary store is removed, the last read-back's statuses stay.
    let result;
    try {
      result = await withInterrupts((signal) => syncMerchant({ outputDir, channels, logger, signal }), "interrupted: Google's statuses were not read; the last read-back's stay");
    } finally {
      await lock.release();
    }
    await sendMerchantAlerts(config, channels, result, logger);
    process.stdout.write(`${[...summaryLines(result.feeds), `${result.requests} Merchant API requests`].join("\n")}\n`);
    if (result.problems.length > 0) {
      const first = result.problems[0]!;
      const code: ErrorCode = (ERROR_CODES as readonly string[]).includes(first.code) ? (first.code as ErrorCode) : "MERCHANT_HTTP";
      throw new PharmafeedError(code, result.problems.map((p) => `${p.channel ?? "merchant"}: ${p.reason}`).join("; "));
    }
  },
};
