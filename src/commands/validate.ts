/**
 * `pharmafeed validate`: checks the whole configuration without fetching
 * anything: every file against its schema, presets, locales, layouts (loaded
 * and compiled), the source filter, the offers file's presence, credentials.
 */
import type { CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";

interface ValidateArgs {
  config: string;
  credentials: boolean;
}

export const validateCommand: CommandModule<object, ValidateArgs> = {
  command: "validate",
  describe: "Check the configuration (files, presets, templates, filter, credentials) without fetching",
  builder: (yargs) =>
    yargs
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("credentials", { type: "boolean", default: true, describe: "also require the source credentials (--no-credentials to skip)" }),
  handler: async (args) => {
    const config = await loadConfig(args.config, { checkCredentials: args.credentials });
    const lines = config.channels.map(
      (c) => `  ${c.name.padEnd(20)} ${c.preset.name.padEnd(15)} ${c.mapping.locale} -> ${c.outputFile}${c.gzip ? " (+ .gz)" : ""}`,
    );
    process.stdout.write(`${config.file}: valid, ${config.channels.length} channel(s)\n${lines.join("\n")}\n`);
  },
};
