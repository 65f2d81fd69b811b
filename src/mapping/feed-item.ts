/**
 * The channel-neutral item that mapping produces and writers consume. Every
 * string is plain text, unescaped (`& < > " '` and emoji as they are): each
 * writer escapes for its own format, exactly once. Templates see these names.
 */
import type { ItemCodes } from "./national-codes.js";

export type Availability = "in_stock" | "out_of_stock" | "preorder" | "backorder";

export interface Money {
  /** Integer cents, VAT included, rounded half-up. */
  cents: number;
  /** ISO 4217, from the channel. */
  currency: string;
  /** Formatted as the channel wants it: "12.99 EUR", "12,99", ... */
  text: string;
  /** Decimal amount with a dot and two decimals, "12.99", for formats that want a bare number. */
  amount: string;
}

/** A photo behind one of the item's image links: what the image pipeline downloads and caches by. */
export interface ImageSource {
  /** The URL chosen for the channel (the catalogue's rendition). */
  url: string;
  /** The catalogue's media id of the photo. */
  mediaId: number;
  /** The photo's meta.updatedAt (Unix seconds), when the catalogue sends it. */
  updatedAt?: number;
}

export interface FeedItem {
  /** Catalogue product id (or the channel's id template result). */
  id: string;
  title: string;
  description: string;
  link: string;
  /** link without tracking parameters (utm_*, gclid, fbclid, ...): Kelkoo's landing-page-url. */
  landingPageUrl: string;
  /** Empty string when the channel does not require an image and none was usable. */
  imageLink: string;
  additionalImageLinks: string[];
  /** The regular price. */
  price: Money;
  /** The offer's sale price, only while the sale runs at run time. */
  salePrice?: Money;
  /**
   * The price the shopper pays at run time: salePrice while a sale runs, else price. Channels
   * without a sale field publish this one, so the feed matches the landing page.
   */
  currentPrice: Money;
  /** ISO 8601 dates of the sale, from the offer. */
  salePriceFrom?: string;
  salePriceUntil?: string;
  /**
   * `start/end`, a complete ISO 8601 interval, only when the sale has both ends: Google refuses
   * an open interval (`2026-11-01T00:00:00Z/`), so a sale without an end is sent without it.
   */
  salePriceEffectiveDate?: string;
  availability: Availability;
  /** With preorder / backorder only: when it ships, as Google writes it (`2026-12-15T00:00Z`), from the offer. */
  availabilityDate?: string;
  stockQuantity?: number;
  condition: "new";
  brand?: string;
  /** The GTIN at the channel's output width, check digit verified; absent when none is valid. */
  gtin?: string;
  /** Every valid distinct GTIN of the product (channels such as idealo or Microsoft take several). */
  gtins: string[];
  mpn?: string;
  /**
   * Google's identifier_exists: false only when there is no valid GTIN and not both brand and
   * mpn (Merchant Center help, answer 6324478).
   */
  identifierExists: boolean;
  /** Taxonomy id from the channel's mapping table (nearest mapped ancestor). */
  googleProductCategory?: string;
  /** Public category path in the channel's locale, outermost first. */
  categoryPath: string[];
  /** categoryPath joined with " > ". */
  productType?: string;
  categoryType?: string;
  weight?: { value: number; unit: string; text: string };
  packageContent?: string;
  /** The measure of the product as sold (package content; a multi-pack counts whole). Absent when the name disagrees. */
  unitPricingMeasure?: { value: number; unit: string; text: string };
  /** What the unit price is given for ("1 l", "100 g"): the channel's `unitPricing` base of the measure's kind. */
  unitPricingBaseMeasure?: { value: number; unit: string; text: string };
  /** The price the customer pays (the sale price while it runs) per unitPricingBaseMeasure, formatted like price. */
  unitPrice?: Money;
  cip13?: string;
  acl13?: string;
  /**
   * The national pharmacy codes that pass their checks (national-codes.ts): cnk, cip7 (from
   * cipOrAcl7, CIP7 or ACL7 alike), cip13, acl13. Never copied into mpn or gtin from here.
   * Absent when none passes (most products): a JSON feed's items carry no empty object.
   */
  codes?: ItemCodes;
  /**
   * What the policy rows that allowed the product carry (docs/policy.md, limits): the youngest
   * buyer, the most that may be sold online. Absent when no row carries anything.
   */
  policy?: { minAge?: number; maxQuantity?: number } | undefined;
  leafletUrl?: string;
  prescription: boolean;
  /** The locale the item was built for, and the fallback locale each field used (field -> locale). */
  locale: string;
  fallbacks: Record<string, string>;
  /** Extra values from the channel's field overrides, addressable by templates as `custom.<name>`. */
  custom: Record<string, string>;
  /**
   * The photos behind imageLink then additionalImageLinks, in that order. Set by the pipeline only
   * for channels with `images.process`, and removed before the row is written.
   */
  imageSources?: ImageSource[];
}
