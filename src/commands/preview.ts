/**
 * `pharmafeed preview --channel NAME`: a few items of one channel rendered from
 * the catalogue, as a table or in the channel's own format. Publishes nothing,
 * takes no lock: safe beside a running `generate`.
 */
import type { Argv, CommandModule } from "yargs";
import { integerOption, SHOP_OPTION } from "./flags.js";
import { loadConfig } from "../config/load.js";

export interface PreviewArgs {
  config: string;
  /** A config with shops: the shop (docs/shops.md). */
  shop?: string;
  channel: string;
  limit: number;
  id?: string[];
  format: "table" | "raw";
}

export const previewCommand: CommandModule<object, PreviewArgs> = {
  command: "preview",
  describe: "Render a few items of one channel from the catalogue to the terminal; publishes nothing",
  builder: (yargs) =>
    yargs
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("shop", SHOP_OPTION)
      .option("channel", { type: "string", demandOption: true, describe: "the channel to render" })
      .option("limit", integerOption("limit", { min: 1, what: "a count of items" }, { default: 10, describe: "items to show (without --id)" }))
      .option("id", { type: "string", array: true, describe: "these products only (repeatable), whatever their status" })
      .option("format", { choices: ["table", "raw"] as const, default: "table" as const, describe: "a table, or the channel's own format (XML, CSV, ...)" }) as unknown as Argv<PreviewArgs>,
  handler: async (args) => {
    const config = await loadConfig(args.config, { ...(args.shop === undefined ? {} : { shop: args.shop }), only: [args.channel] });
    const { renderPreview } = await import("../preview/preview.js");
    const text = await renderPreview({
      config,
      channel: args.channel,
      limit: args.limit,
      ...(args.id ? { ids: args.id } : {}),
      format: args.format,
      width: process.stdout.columns ?? 120,
      leftOut: (text) => process.stderr.write(text),
    });
    process.stdout.write(text);
  },
};
