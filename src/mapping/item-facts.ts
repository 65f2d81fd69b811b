/**
 * What "what changed in my feed?" compares of an item (src/history/diff.ts): the price the shopper
 * pays, its availability, and whether its title, link and main photo changed. Taken once, where the
 * row is rendered (pipeline/channel-mapper.ts), and carried in the item's outcome (`s`, explain/entry.ts),
 * so that every road a row takes (mapped here or in a worker, copied by a refresh, written after its
 * images) keeps them, and no feed has to be parsed back to know its prices.
 *
 * Text fields as 32-bit FNV-1a hashes: enough to tell "changed" (a collision hides one change in
 * ~4 billion), an eighth of the bytes of a title and none of a URL's length.
 */
import type { FeedItem } from "./feed-item.js";

/**
 * [cents the shopper pays, currency, availability, title hash, link hash, main photo hash], and the
 * published id when the channel's id template made it differ from the catalogue's (rare: most
 * channels publish the catalogue id, which the state log has already).
 */
export type ItemFacts = [cents: number, currency: string, availability: string, title: number, link: number, image: number, publishedId?: string];

/** FNV-1a over UTF-16 code units; 0 for "" (no photo). */
export function textHash(text: string): number {
  if (text === "") return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function itemFacts(item: FeedItem, catalogueId: string): ItemFacts {
  const price = item.currentPrice;
  const facts: ItemFacts = [price.cents, price.currency, item.availability, textHash(item.title), textHash(item.link), textHash(item.imageLink)];
  if (item.id !== catalogueId) facts.push(item.id);
  return facts;
}

/**
 * An item outcome's facts as JSON text (`[1299,"EUR","in_stock",...]`), read out of the outcome's
 * text without parsing the rest (its masks, warnings): the packer puts `s` right after `o` and `l`
 * (`{"o":N,"l":N,"s":[...]`). undefined for an exclusion or an outcome packed before facts were kept.
 * A published id is JSON text that may hold "]" or escaped quotes: the end is found outside strings.
 */
export function factsText(outcome: string): string | undefined {
  if (!outcome.startsWith('{"o":')) return undefined;
  const l = outcome.indexOf(',"l":', 5);
  if (l < 0) return undefined;
  const comma = outcome.indexOf(",", l + 5);
  if (comma < 0 || !outcome.startsWith('"s":[', comma + 1)) return undefined;
  const start = comma + 5;
  let inString = false;
  for (let i = start + 1; i < outcome.length; i++) {
    const c = outcome.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5d) return outcome.slice(start, i + 1);
  }
  return undefined;
}
