/**
 * `pharmafeed diff [--channel X] [--json] [FROM] [TO]`: what changed between two published versions
 * of each feed (default: the one before the live one, and the live one), from the item sheets the
 * feed history keeps (src/history/). Reads kept files only, never the catalogue.
 */
import type { Argv, CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";
import { PharmafeedError } from "../errors.js";
import { integerOption, SHOP_OPTION } from "./flags.js";

export interface DiffArgs {
  from?: string;
  to?: string;
  config: string;
  /** A config with shops: the shop (docs/shops.md). */
  shop?: string;
  output?: string;
  channel?: string;
  json: boolean;
  limit: number;
}

export const diffCommand: CommandModule<object, DiffArgs> = {
  command: "diff [from] [to]",
  describe: "What changed between two published versions of each feed: items added and removed, prices, availability, titles, links, photos",
  builder: (yargs) =>
    yargs
      .positional("from", { type: "string", describe: 'the older version: "previous" (default), "live", a time as diff and rollback print it, a run\'s start time, or its beginning (2026-11-27), or a digest prefix' })
      .positional("to", { type: "string", describe: 'the newer version: "live" (default), or as FROM' })
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("shop", SHOP_OPTION)
      .option("output", { type: "string", describe: "output directory (default: from the config)" })
      .option("channel", { type: "string", describe: "only this channel" })
      .option("json", { type: "boolean", default: false, describe: "print the differences as JSON, every id listed" })
      .option("limit", integerOption("limit", { min: 0, what: "a count of ids" }, { default: 20, describe: "ids listed per kind in the text report" })) as unknown as Argv<DiffArgs>,
  handler: async (args) => {
    const config = await loadConfig(args.config, { ...(args.shop === undefined ? {} : { shop: args.shop }), checkCredentials: false, notify: false });
    if (args.channel !== undefined && !config.channelNames.includes(args.channel)) {
      throw new PharmafeedError("USAGE", `no channel named "${args.channel}"; known: ${config.channelNames.join(", ")}`);
    }
    // A reference that names nothing whatever is on record is a bad argument, not a channel's failure.
    const { badReference } = await import("../history/versions.js");
    for (const [name, ref] of [["FROM", args.from], ["TO", args.to]] as const) {
      const bad = ref === undefined ? undefined : badReference(ref);
      if (bad !== undefined) throw new PharmafeedError("USAGE", `${name}: ${bad}`);
    }
    const { diffChannels } = await import("../history/diff-run.js");
    const outputDir = args.output ?? config.outputDir;
    const channels = args.channel === undefined ? config.channelNames : [args.channel];
    const result = await diffChannels(outputDir, channels, args.from ?? "previous", args.to ?? "live");
    if (args.json) process.stdout.write(`${JSON.stringify({ from: args.from ?? "previous", to: args.to ?? "live", channels: result.channels }, null, 2)}\n`);
    else process.stdout.write(`${result.text(args.limit)}\n`);
    // Some channel could not be compared (said per channel): a script must not take it for "nothing changed".
    if (result.channels.some((c) => !c.ok)) process.exitCode = 1;
  },
};
