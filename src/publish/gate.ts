/**
 * The publish gate: a feed that shrank too much against the live one, or whose
 * share of products rejected for bad data is too high, is not published; the
 * live file stays and the run says why. `--force` publishes anyway.
 */
export interface GateSettings {
  /** Largest drop of items against the live feed, in percent. */
  maxDropPercent: number;
  /** Largest share of data-quality rejections among the products considered, in percent. */
  maxRejectedPercent: number;
  /** A column blank in every row: a warning, or a reason not to publish. */
  emptyColumns?: "warn" | "refuse";
  /** A price moved more than this, in percent, against the live feed counts as moved (0: any change). */
  maxPriceChangePercent?: number;
  /** Largest share of items (in both feeds) whose price moved, in percent; 100 turns the check off. */
  maxPriceChangedItemsPercent?: number;
}

/** How this run's prices compare with the live feed's (src/history/diff.ts), for the price rule. */
export interface PriceMoves {
  /** Items in both feeds. */
  compared: number;
  /** Of those, items whose price moved more than maxPriceChangePercent. */
  moved: number;
  /** The largest such move, for the reason. */
  largest?: { id: string; from: string; to: string };
}

export interface GateInput {
  items: number;
  /** Products left out for bad data (not for eligibility such as prescription or status). */
  rejected: number;
  /** Items of the feed being served now, if any. */
  liveItems?: number;
  /** Columns blank in every row of this run. */
  emptyColumns?: readonly string[];
  /**
   * The live file's name and this run's, when they differ (a renamed `file`, another format): publishing
   * would move the feed to another URL and the one the marketplace fetches would answer 404.
   */
  move?: { from: string; to: string };
  /** Price moves against the live feed, when both feeds' item sheets could be compared. */
  prices?: PriceMoves;
}

export type GateVerdict = { publish: true } | { publish: false; reason: string };

export function evaluateGate(input: GateInput, settings: GateSettings, force = false): GateVerdict {
  if (force) return { publish: true };
  const { items, rejected, liveItems } = input;
  if (input.move && input.move.from !== input.move.to) {
    return { publish: false, reason: `the file would move from ${input.move.from} to ${input.move.to}, and the URL the marketplace fetches would stop answering (to move it on purpose: generate --retire with this channel's name, or --force)` };
  }
  if (liveItems !== undefined && liveItems > 0) {
    const drop = ((liveItems - items) / liveItems) * 100;
    if (drop > settings.maxDropPercent) {
      return {
        publish: false,
        reason: `items dropped ${drop.toFixed(1)}% (${liveItems} -> ${items}), more than maxDropPercent ${settings.maxDropPercent}%`,
      };
    }
  }
  const empty = input.emptyColumns ?? [];
  if (settings.emptyColumns === "refuse" && items > 0 && empty.length > 0) {
    return { publish: false, reason: `column${empty.length > 1 ? "s" : ""} ${empty.map((c) => `"${c}"`).join(", ")} empty in every row (gate.emptyColumns "refuse")` };
  }
  const considered = items + rejected;
  if (considered > 0) {
    const share = (rejected / considered) * 100;
    if (share > settings.maxRejectedPercent) {
      return {
        publish: false,
        reason: `${share.toFixed(1)}% of products rejected for bad data (${rejected}), more than maxRejectedPercent ${settings.maxRejectedPercent}%`,
      };
    }
  }
  const prices = input.prices;
  const maxItems = settings.maxPriceChangedItemsPercent ?? 100;
  if (prices && prices.compared > 0 && maxItems < 100) {
    const share = (prices.moved / prices.compared) * 100;
    if (share > maxItems) {
      const largest = prices.largest ? `; largest ${prices.largest.id}: ${prices.largest.from} -> ${prices.largest.to}` : "";
      return {
        publish: false,
        reason: `prices moved more than ${settings.maxPriceChangePercent ?? 0}% for ${share.toFixed(1)}% of items (${prices.moved} of ${prices.compared}${largest}), more than maxPriceChangedItemsPercent ${maxItems}%`,
      };
    }
  }
  return { publish: true };
}
