/**
 * The run's offers file, before any request: read, judged, its refused rows reported
 * (reports/_offers.csv); a file that would publish wrong prices stops the run with the live
 * feeds untouched, unless --force.
 */
import { join } from "node:path";
import { stringify } from "csv-stringify/sync";
import type { LoadedConfig } from "../config/types.js";
import { AtomicOutput } from "../core/atomic-output.js";
import { lastPublishedPrices } from "../history/last-prices.js";
import type { Logger } from "../log.js";
import type { Manifest } from "../publish/manifest.js";
import { type LoadedOffers, loadOffers, offersRefused } from "./offers-file.js";
import { REPORTS_DIR } from "../core/layout.js";

/** Channel names cannot start with "_", so no channel report can take this name. */
export const OFFERS_REPORT = "_offers.csv";

async function writeOffersReport(dir: string, offers: LoadedOffers): Promise<void> {
  const out = new AtomicOutput(join(dir, REPORTS_DIR, OFFERS_REPORT));
  await out.write(stringify([["line", "reason", "detail"], ...offers.parsed.errors.map((e) => [e.line, e.reason, e.detail])]));
  await out.finish();
  await out.publish();
}

export type OffersRefusedFigures = NonNullable<Manifest["offersRefused"]>;

/**
 * The offers of the run, or undefined without an offers file. A refused file throws OFFERS_REFUSED,
 * after `onRefused` was given the figures the failure record keeps.
 */
export async function readRunOffers(input: {
  config: LoadedConfig;
  outputDir: string;
  previous: Manifest | undefined;
  reportDir: string;
  force: boolean;
  logger: Logger;
  onRefused: (figures: OffersRefusedFigures) => void;
}): Promise<LoadedOffers | undefined> {
  const { config, logger } = input;
  if (!config.offers) return undefined;
  const offers = await loadOffers(config.offers, input.previous?.offers?.accepted);
  const { parsed } = offers;
  logger.info("offers loaded", { file: offers.file, rows: parsed.rows, accepted: parsed.offers.size, refused: parsed.errorCount });
  for (const e of parsed.errors.slice(0, 10)) logger.warn("offers row refused", { line: e.line, reason: e.reason, detail: e.detail });
  await writeOffersReport(input.reportDir, offers);
  // A price is judged against the catalogue's public price, else against the price last published (mapping/offer-check.ts).
  const last = await lastPublishedPrices(input.outputDir, input.previous);
  if (last) {
    const judged = parsed.offers.setLastPublished((id) => last.byId.get(id), (code) => last.byCode.get(code));
    logger.info("offers judged against the last published prices too", { from: last.channel, offers: judged });
  }
  if (offers.problems.length === 0) return offers;
  if (!input.force) {
    input.onRefused({ file: offers.file, rows: parsed.rows, accepted: parsed.offers.size, refused: parsed.errorCount, rowsAccepted: parsed.rowsAccepted, reasons: offers.problems });
    throw offersRefused(offers.file, offers.problems, parsed);
  }
  logger.warn("offers file would be refused, used anyway (--force)", { file: offers.file, problems: offers.problems.join("; ") });
  return offers;
}
