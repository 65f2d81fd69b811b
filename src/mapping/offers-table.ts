/**
 * The offers index, compact and shared. A chain's file has millions of rows: as
 * a Map of objects (one per row, plus its key strings) 2,000,000 rows took
 * 2.1 GB, and every worker thread received its own structured clone. Here an
 * offer is one row of typed arrays (45 bytes), keys and links are UTF-8 bytes in
 * pools (links deduplicated), and the hash tables are open-addressing arrays of
 * row numbers. Every array lives in a SharedArrayBuffer, so a worker gets the
 * index by reference (`share()` then `OffersIndex.from()`), not by copy.
 *
 *   id (string) ─> ids pool ─> idRow ─┐
 *   GTIN key (14 digits, a number) ───┴─> row ─> price | sale | dates | quantity | availability (+ date) | link ─> links pool
 *
 * Only the main thread adds (while the file is read); afterwards every thread
 * only reads, so no locking is needed.
 *
 * A row refused for a bad field keeps its keys here too, with only its line and why (`refused`):
 * its product must not fall back to the catalogue's price and `in_stock` as if the shop had no
 * row for it (offers.whenRefused decides, mapping/offer-check.ts).
 */
import type { Availability } from "./feed-item.js";
import { PHARMACY_CODES, type PharmacyCodeKind } from "./pharmacy-codes.js";
import { OFFER_ERRORS, type OfferErrorCode } from "./reasons.js";
import { ensure, type SharedPool, sharedArray, StringPool } from "./shared-arrays.js";

/**
 * The national pharmacy codes an offers file may carry, checked when the row is read (the item's
 * `codes`; not keys: a row is found by id, gtin or cip13). Each has a fixed length
 * (pharmacy-codes.ts), so it is kept as a number and padded back.
 */
export const OFFER_CODES = ["cnk", "pzn", "zi", "aic", "cn", "cip7"] as const satisfies readonly PharmacyCodeKind[];
export type OfferCode = (typeof OFFER_CODES)[number];
const CODE_COUNT = OFFER_CODES.length;

/** One offer as mapping sees it. */
export interface Offer {
  /** Line of the row in the offers file. */
  line: number;
  priceCents?: number;
  salePriceCents?: number;
  /** Unix seconds. */
  saleFrom?: number;
  saleUntil?: number;
  quantity?: number;
  availability?: Availability;
  /** Unix seconds: when a preorder or backorder ships. */
  availabilityDate?: number;
  link?: string;
  /** The row's checked national codes (OFFER_CODES), normalised digits. */
  codes?: Partial<Record<OfferCode, string>>;
  /** Set on a row refused when the file was read: only `line` and this are kept of it. */
  refused?: OfferErrorCode;
  /**
   * What the shopper paid for this product in the feed live before this run (src/history/
   * last-prices.ts): what a price is judged against when the catalogue has no public price.
   */
  lastPublishedCents?: number;
}

const REFUSALS = Object.keys(OFFER_ERRORS) as OfferErrorCode[];

/** Prices are stored as int32 cents: anything above is refused as a price (OFFER_BAD_PRICE). */
export const MAX_PRICE_CENTS = 0x7fffffff;
const AVAILABILITIES: readonly (Availability | undefined)[] = [undefined, "in_stock", "out_of_stock", "preorder", "backorder"];

/** What a worker thread receives: the arrays (shared, not copied) and the counts. */
export interface SharedOffers {
  size: number;
  /** Of `size`, the refused rows. */
  refusedCount: number;
  /** 0, or 1 + the index of the refusal's code in OFFER_ERRORS. */
  refused: Uint8Array;
  line: Uint32Array;
  price: Int32Array;
  salePrice: Int32Array;
  quantity: Int32Array;
  saleFrom: Float64Array;
  saleUntil: Float64Array;
  availability: Uint8Array;
  availabilityDate: Float64Array;
  link: Int32Array;
  idRow: Int32Array;
  ids: SharedPool;
  links: SharedPool;
  gtinCount: number;
  gtinKeys: Float64Array;
  gtinRows: Int32Array;
  /** 0, or the row's product's last published price in cents (setLastPublished). */
  lastPublished: Int32Array;
  /** CODE_COUNT per row, in OFFER_CODES order: the code's digits as a number, NaN when absent. */
  codes: Float64Array;
}

/** A value of a column kept only once some row has one: NaN past its end. */
function at(column: Float64Array, index: number): number {
  return index < column.length ? column[index]! : Number.NaN;
}

function hashNumber(key: number): number {
  return Math.imul((key % 0x100000000) ^ Math.floor(key / 0x100000000), 0x9e3779b1) >>> 0;
}

export class OffersIndex {
  private constructor(private d: SharedOffers) {}

  static create(): OffersIndex {
    const rows = 1024;
    return new OffersIndex({
      size: 0,
      refusedCount: 0,
      refused: sharedArray(Uint8Array, rows),
      line: sharedArray(Uint32Array, rows),
      price: sharedArray(Int32Array, rows),
      salePrice: sharedArray(Int32Array, rows),
      quantity: sharedArray(Int32Array, rows, -1),
      // Only when some row has one (at() reads NaN past their end): with many shops, each shop's index
      // of 100,000 rows spent ~10 MB on columns its file does not have (docs/shops.md, Figures).
      saleFrom: sharedArray(Float64Array, 0),
      saleUntil: sharedArray(Float64Array, 0),
      availability: sharedArray(Uint8Array, rows),
      availabilityDate: sharedArray(Float64Array, 0),
      link: sharedArray(Int32Array, rows, -1),
      idRow: sharedArray(Int32Array, rows),
      ids: StringPool.create().share(),
      links: StringPool.create().share(),
      gtinCount: 0,
      gtinKeys: sharedArray(Float64Array, 128),
      gtinRows: sharedArray(Int32Array, 128),
      lastPublished: sharedArray(Int32Array, rows),
      codes: sharedArray(Float64Array, 0),
    });
  }

  /** The index a worker thread received from `share()`. */
  static from(shared: SharedOffers): OffersIndex {
    return new OffersIndex(shared);
  }

  share(): SharedOffers {
    return this.d;
  }

  /** Accepted offers (rows) in the index; refused rows kept for their keys are not counted. */
  get size(): number {
    return this.d.size - this.d.refusedCount;
  }

  hasId(id: string): boolean {
    return StringPool.from(this.d.ids).find(id) >= 0;
  }

  hasGtin(key: string): boolean {
    return this.gtinRow(Number(key)) >= 0;
  }

  /** Whether a key is taken by an accepted row (`accepted`), only by refused ones (`refused`), or free. */
  taken(id: string | undefined, gtinKeys: readonly string[]): "accepted" | "refused" | undefined {
    const rows: number[] = [];
    if (id !== undefined) {
      const index = StringPool.from(this.d.ids).find(id);
      if (index >= 0) rows.push(this.d.idRow[index]!);
    }
    for (const key of gtinKeys) rows.push(this.gtinRow(Number(key)));
    const used = rows.filter((row) => row >= 0);
    return used.length === 0 ? undefined : used.some((row) => this.d.refused[row] === 0) ? "accepted" : "refused";
  }

  byId(id: string): Offer | undefined {
    const index = StringPool.from(this.d.ids).find(id);
    return index < 0 ? undefined : this.offer(this.d.idRow[index]!);
  }

  /** By 14-digit GTIN key (CIP13 codes are GTIN-13s and land here too). */
  byGtin(key: string): Offer | undefined {
    const row = this.gtinRow(Number(key));
    return row < 0 ? undefined : this.offer(row);
  }

  /** Every id, in the order the rows were added. */
  *ids(): IterableIterator<string> {
    const pool = StringPool.from(this.d.ids);
    for (let i = 0; i < pool.count; i++) yield pool.get(i);
  }

  /**
   * Adds a validated offer under its keys, or (with `offer.refused`) a refused row's line and
   * reason. The caller checked that no key is taken by an accepted row (OFFER_DUPLICATE); keys of
   * refused rows are taken over by an accepted one.
   */
  add(offer: Offer, id: string | undefined, gtinKeys: readonly string[]): void {
    const d = this.d;
    const row = d.size++;
    const n = d.size;
    d.refused = ensure(d.refused, n);
    if (offer.refused !== undefined) {
      d.refused[row] = REFUSALS.indexOf(offer.refused) + 1;
      d.refusedCount++;
    }
    d.line = ensure(d.line, n);
    d.price = ensure(d.price, n);
    d.salePrice = ensure(d.salePrice, n);
    d.quantity = ensure(d.quantity, n, -1);
    d.availability = ensure(d.availability, n);
    d.link = ensure(d.link, n, -1);
    d.lastPublished = ensure(d.lastPublished, n);
    OFFER_CODES.forEach((kind, k) => {
      const code = offer.codes?.[kind];
      if (code === undefined) return;
      d.codes = ensure(d.codes, n * CODE_COUNT, NaN);
      d.codes[row * CODE_COUNT + k] = Number(code);
    });
    d.line[row] = offer.line;
    d.price[row] = offer.priceCents ?? 0;
    d.salePrice[row] = offer.salePriceCents ?? 0;
    d.quantity[row] = offer.quantity ?? -1;
    if (offer.saleFrom !== undefined) (d.saleFrom = ensure(d.saleFrom, n, NaN))[row] = offer.saleFrom;
    if (offer.saleUntil !== undefined) (d.saleUntil = ensure(d.saleUntil, n, NaN))[row] = offer.saleUntil;
    d.availability[row] = offer.availability === undefined ? 0 : AVAILABILITIES.indexOf(offer.availability);
    if (offer.availabilityDate !== undefined) (d.availabilityDate = ensure(d.availabilityDate, n, NaN))[row] = offer.availabilityDate;
    if (offer.link !== undefined) {
      const links = StringPool.from(d.links);
      d.link[row] = links.intern(offer.link);
      d.links = links.share();
    }
    if (id !== undefined) {
      const ids = StringPool.from(d.ids);
      const index = ids.intern(id);
      d.ids = ids.share();
      d.idRow = ensure(d.idRow, index + 1);
      d.idRow[index] = row;
    }
    for (const key of gtinKeys) this.addGtin(Number(key), row);
  }

  /**
   * Gives each row the price its product was last published at, by the row's id, else by any of
   * its GTIN keys (once every row is added, before the index is shared).
   */
  setLastPublished(byId: (id: string) => number | undefined, byGtin: (key: number) => number | undefined): number {
    const d = this.d;
    let set = 0;
    const ids = StringPool.from(d.ids);
    for (let i = 0; i < ids.count; i++) {
      const cents = byId(ids.get(i));
      if (cents === undefined || cents <= 0 || cents > MAX_PRICE_CENTS) continue;
      d.lastPublished[d.idRow[i]!] = cents;
      set++;
    }
    for (let slot = 0; slot < d.gtinRows.length; slot++) {
      const row = d.gtinRows[slot]! - 1;
      if (row < 0 || d.lastPublished[row] !== 0) continue;
      const cents = byGtin(d.gtinKeys[slot]!);
      if (cents === undefined || cents <= 0 || cents > MAX_PRICE_CENTS) continue;
      d.lastPublished[row] = cents;
      set++;
    }
    return set;
  }

  /**
   * What mapping can use of the offer lookupOffer() finds for these keys, as a string ("" for
   * none): a reused row stays right while this is unchanged (src/rowcache/). An accepted row's
   * line number is left out: no output shows it, and an offer that only moved keeps its rows.
   */
  fingerprint(productId: string, gtinKeys: Iterable<string>): string {
    let row = -1;
    const index = StringPool.from(this.d.ids).find(productId);
    if (index >= 0) row = this.d.idRow[index]!;
    else {
      for (const key of gtinKeys) {
        row = this.gtinRow(Number(key));
        if (row >= 0) break;
      }
    }
    if (row < 0) return "";
    const d = this.d;
    const link = d.link[row]! >= 0 ? StringPool.from(d.links).get(d.link[row]!) : "";
    // The availability date only when the row has one: fingerprints of rows without stay as they were.
    const availabilityDate = at(d.availabilityDate, row);
    const date = Number.isNaN(availabilityDate) ? "" : `@${availabilityDate}`;
    // The refusal only when the row is refused (fingerprints of accepted rows stay as they were),
    // with its line: OFFER_REFUSED names it.
    const refused = d.refused[row] === 0 ? "" : `!${d.refused[row]}@${d.line[row]}`;
    // The last published price only when it is not the row's own (the usual case: a row that did not
    // change was published at its price), so the fingerprints of unchanged rows stay as they were.
    const last = d.lastPublished[row] === 0 || d.lastPublished[row] === d.price[row] ? "" : `~${d.lastPublished[row]}`;
    return `${refused}${last}${this.codesText(row)}${d.price[row]}|${d.salePrice[row]}|${d.quantity[row]}|${at(d.saleFrom, row)}|${at(d.saleUntil, row)}|${d.availability[row]}${date}|${d.link[row]! >= 0 ? "l" : "-"}${link}`;
  }

  private offer(row: number): Offer {
    const d = this.d;
    const offer: Offer = { line: d.line[row]! };
    if (d.refused[row] !== 0) offer.refused = REFUSALS[d.refused[row]! - 1]!;
    if (d.price[row]! > 0) offer.priceCents = d.price[row]!;
    if (d.salePrice[row]! > 0) offer.salePriceCents = d.salePrice[row]!;
    const saleFrom = at(d.saleFrom, row);
    const saleUntil = at(d.saleUntil, row);
    if (!Number.isNaN(saleFrom)) offer.saleFrom = saleFrom;
    if (!Number.isNaN(saleUntil)) offer.saleUntil = saleUntil;
    if (d.quantity[row]! >= 0) offer.quantity = d.quantity[row]!;
    const availability = AVAILABILITIES[d.availability[row]!];
    if (availability !== undefined) offer.availability = availability;
    const availabilityDate = at(d.availabilityDate, row);
    if (!Number.isNaN(availabilityDate)) offer.availabilityDate = availabilityDate;
    if (d.link[row]! >= 0) offer.link = StringPool.from(d.links).get(d.link[row]!);
    if (d.lastPublished[row] !== 0) offer.lastPublishedCents = d.lastPublished[row]!;
    OFFER_CODES.forEach((kind, k) => {
      const value = at(d.codes, row * CODE_COUNT + k);
      if (!Number.isNaN(value)) (offer.codes ??= {})[kind] = String(value).padStart(PHARMACY_CODES[kind].digits, "0");
    });
    return offer;
  }

  /** The row's codes for its fingerprint: "" when it has none, so fingerprints of rows without stay as they were. */
  private codesText(row: number): string {
    let text = "";
    for (let k = 0; k < CODE_COUNT; k++) {
      const value = at(this.d.codes, row * CODE_COUNT + k);
      if (!Number.isNaN(value)) text += `${OFFER_CODES[k]}${value}#`;
    }
    return text;
  }

  private gtinRow(key: number): number {
    const { gtinKeys, gtinRows } = this.d;
    const mask = gtinRows.length - 1;
    for (let slot = hashNumber(key) & mask; gtinRows[slot] !== 0; slot = (slot + 1) & mask) {
      if (gtinKeys[slot] === key) return gtinRows[slot]! - 1;
    }
    return -1;
  }

  private addGtin(key: number, row: number): void {
    const d = this.d;
    // Taken: the same code twice in one row (gtin and cip13), or a refused row's that `row` replaces.
    if (this.gtinRow(key) >= 0) return this.placeGtin(key, row, true);
    if ((d.gtinCount + 1) * 2 > d.gtinRows.length) {
      const [keys, rows] = [d.gtinKeys, d.gtinRows];
      d.gtinKeys = sharedArray(Float64Array, keys.length * 2);
      d.gtinRows = sharedArray(Int32Array, rows.length * 2);
      for (let slot = 0; slot < rows.length; slot++) if (rows[slot] !== 0) this.placeGtin(keys[slot]!, rows[slot]! - 1);
    }
    this.placeGtin(key, row);
    d.gtinCount++;
  }

  private placeGtin(key: number, row: number, taken = false): void {
    const { gtinKeys, gtinRows } = this.d;
    const mask = gtinRows.length - 1;
    let slot = hashNumber(key) & mask;
    while (gtinRows[slot] !== 0 && !(taken && gtinKeys[slot] === key)) slot = (slot + 1) & mask;
    gtinKeys[slot] = key;
    gtinRows[slot] = row + 1;
  }
}
