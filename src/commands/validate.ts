/**
 * `pharmafeed validate`: checks the whole configuration without fetching
 * anything: every file against its schema, presets, locales, layouts (loaded
 * and compiled), the source filter, credentials, and the offers file: read
 * and judged as generate would (against the last run's manifest in the output
 * directory); a file generate would refuse fails validate with the same error.
 */
import type { CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";
import { isPharmafeedError, PharmafeedError } from "../errors.js";
import { loadOffers, offersRefused } from "../pipeline/offers-file.js";
import { readPreviousManifest } from "../publish/manifest.js";

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
    const config = await loadConfig(args.config, { checkCredentials: args.credentials, notify: false }).catch((error: unknown) => {
      // Secrets missing where validate runs (a laptop, CI): say how to check the rest without them.
      if (args.credentials && isPharmafeedError(error, "CONFIG_INVALID") && /environment variable \S+ is not set/.test(error.message)) {
        throw new PharmafeedError("CONFIG_INVALID", `${error.message}\n  to check everything but the secrets here: pharmafeed validate --config ${args.config} --no-credentials`, { cause: error, context: error.context });
      }
      throw error;
    });
    const lines = config.channels.map(
      (c) => `  ${c.name.padEnd(20)} ${c.preset.name.padEnd(15)} ${c.mapping.locale} -> ${c.outputFile}${c.gzip ? " (+ .gz)" : ""}`,
    );
    if (config.offers) {
      const previous = (await readPreviousManifest(config.outputDir))?.manifest.offers?.accepted;
      const offers = await loadOffers(config.offers, previous);
      if (offers.problems.length > 0) throw offersRefused(offers.file, offers.problems, offers.parsed, "validate");
      const { rows, offers: index, errors, errorCount } = offers.parsed;
      lines.push(`  offers: ${index.size} of ${rows} rows accepted${errorCount > 0 ? `, ${errorCount} problem(s), the first on line ${errors[0]!.line}` : ""} (${offers.file})`);
    }
    for (const line of config.skipped ?? []) lines.push(`  ${line}`);
    process.stdout.write(`${config.file}: valid, ${config.channels.length} channel(s)\n${lines.join("\n")}\n`);
  },
};
