/**
 * `pharmafeed validate`: checks the whole configuration without fetching
 * anything: every file against its schema, presets, locales, layouts (loaded
 * and compiled), the source filter, credentials, and the offers file: read
 * and judged as generate would (against the last run's manifest in the output
 * directory); a file generate would refuse fails validate with the same error.
 */
import type { CommandModule } from "yargs";
import { isCredentialPath, loadShops } from "../config/load.js";
import type { LoadedConfig } from "../config/types.js";
import { SHOP_OPTION } from "./flags.js";
import { isPharmafeedError, PharmafeedError } from "../errors.js";
import { loadOffers, offersRefused } from "../pipeline/offers-file.js";
import { readPreviousManifest } from "../publish/manifest.js";

interface ValidateArgs {
  config: string;
  credentials: boolean;
  /** A config with shops: only this one (default: every shop). */
  shop?: string;
}

/** What validate says of one shop: its channels, its offers file (judged as generate would). */
async function shopLines(config: LoadedConfig): Promise<string[]> {
  const lines = config.channels.map((c) => `  ${c.name.padEnd(20)} ${c.preset.name.padEnd(15)} ${c.mapping.locale} -> ${c.outputFile}${c.gzip ? " (+ .gz)" : ""}`);
  if (config.offers) {
    const previous = (await readPreviousManifest(config.outputDir))?.manifest.offers?.accepted;
    const offers = await loadOffers(config.offers, previous);
    if (offers.problems.length > 0) throw offersRefused(offers.file, offers.problems, offers.parsed, "validate");
    const { rows, offers: index, errors, errorCount } = offers.parsed;
    lines.push(`  offers: ${index.size} of ${rows} rows accepted${errorCount > 0 ? `, ${errorCount} problem(s), the first on line ${errors[0]!.line}` : ""} (${offers.file})`);
  }
  return lines;
}

export const validateCommand: CommandModule<object, ValidateArgs> = {
  command: "validate",
  describe: "Check the configuration (files, presets, templates, filter, credentials) without fetching",
  builder: (yargs) =>
    yargs
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("credentials", { type: "boolean", default: true, describe: "also require the source credentials (--no-credentials to skip)" })
      .option("shop", SHOP_OPTION),
  handler: async (args) => {
    // Every shop of a config with shops (one error lists every problem of every file); --shop: that one.
    const loaded = await loadShops(args.config, { checkCredentials: args.credentials, notify: false, strict: true, ...(args.shop === undefined ? {} : { select: { names: [args.shop] } }) }).catch((error: unknown) => {
      // Secrets missing where validate runs (a laptop, CI): say how to check the rest without them.
      // Only when one of them is a secret --no-credentials lets be: a link template's ${SHOP_BASE} is not (a review found the hint refused too).
      const unsetSecret = error instanceof Error && [...error.message.matchAll(/: ([^\s:]+): environment variable \S+ is not set/g)].some((m) => isCredentialPath(m[1]!));
      if (args.credentials && isPharmafeedError(error, "CONFIG_INVALID") && unsetSecret) {
        throw new PharmafeedError("CONFIG_INVALID", `${error.message}\n  to check everything but the secrets here: pharmafeed validate --config ${args.config} --no-credentials`, { cause: error, context: error.context });
      }
      throw error;
    });
    if (!loaded.many && args.shop !== undefined) throw new PharmafeedError("USAGE", `--shop ${args.shop}: ${loaded.file} names no shops (it is one shop: leave --shop out)`);
    const parts: string[] = [];
    for (const config of loaded.shops) {
      const lines = await shopLines(config);
      for (const line of config.skipped ?? []) lines.push(`  ${line}`);
      const head = config.shopId === undefined ? `${config.file}: valid` : `shop ${config.shopId} (${config.shopFile}): valid`;
      parts.push(`${head}, ${config.channels.length} channel(s)\n${lines.join("\n")}\n`);
    }
    const lead = loaded.many ? `${loaded.file}: valid, ${loaded.shops.length} shop(s)\n` : "";
    process.stdout.write(lead + parts.join(""));
  },
};
