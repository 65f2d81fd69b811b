/**
 * The price each product was last published at, for judging an offers price when the catalogue
 * has no public price (mapping/offer-check.ts): read from the item sheet of a live feed (sheet.ts),
 * by catalogue id and by each of the product's codes, as the offers file keys its rows.
 *
 * One sheet is read: the live feed with the most items whose sheet is kept (every channel publishes
 * the shop's price; a product in none of the largest feed's items is judged by its public price only).
 */
import type { Manifest } from "../publish/manifest.js";
import { readSheet } from "./sheet.js";

export interface LastPrices {
  byId: Map<string, number>;
  /** By 14-digit code, as a number (the offers index keys codes so). */
  byCode: Map<number, number>;
  /** The channel whose live feed they come from. */
  channel: string;
}

export async function lastPublishedPrices(outputDir: string, manifest: Manifest | undefined): Promise<LastPrices | undefined> {
  const feeds = (manifest?.channels ?? []).flatMap((c) => (c.live && c.live.items > 0 ? [{ channel: c.name, live: c.live }] : [])).sort((a, b) => b.live.items - a.live.items);
  for (const { channel, live } of feeds) {
    const prices: LastPrices = { byId: new Map(), byCode: new Map(), channel };
    const read = await readSheet(outputDir, live.sha256, (item) => {
      prices.byId.set(item.catalogueId, item.cents);
      for (const code of item.codes) prices.byCode.set(Number(code), item.cents);
    });
    if (read.ok) return prices;
  }
  return undefined;
}
