/**
 * Every reason and warning in plain words for a catalogue team: what the
 * channel looked for and did not find (or what it found and refused), from the
 * channel's own settings, followed by the mapping's detail (the bad value, the
 * rule's name). Used by the reports, `pharmafeed explain` and the status page.
 * Pure: settings and a reason in, one sentence out.
 */
import type { ChannelMapping } from "./settings.js";
import type { Reason } from "./reasons.js";

const list = (values: readonly string[]): string => values.join(", ");
const orNone = (value: string | null): string => (value === null ? "any" : value);

function chain(s: ChannelMapping): string {
  return list([s.locale, ...s.fallbackLocales.filter((l) => l !== s.locale)]);
}

function formats(s: ChannelMapping): string {
  const f = s.images.formats;
  return list([f.jpeg ? "JPEG" : "", f.png ? "PNG" : "", f.webp ? "WebP" : ""].filter((x) => x !== ""));
}

/** The sentence of a reason or warning code for this channel; undefined for a code this version does not know. */
function words(code: string, s: ChannelMapping): string | undefined {
  switch (code) {
    case "DELETED":
      return "the catalogue marks the product deleted";
    case "REPLACED":
      return "status replaced: the catalogue points to a replacement product";
    case "STATUS_INACTIVE":
      return "status inactive: the channel publishes active products only";
    case "STATUS_NO_SELECTION":
      return "status no_selection: the catalogue keeps it out of selections";
    case "STATUS_UNKNOWN":
      return "a status this version does not know: only active products are published";
    case "OFFICIALLY_DELETED":
      return "officially deleted (officialDeletionAt is past)";
    case "POLICY_DENIED":
      return `the health policy table leaves this class of product out of ${s.policy.channel} feeds for ${s.country} (docs/policy.md; \`pharmafeed policy --channel ${s.policy.channel} --country ${s.country}\` prints the rows)`;
    case "RULE_EXCLUDED":
      return "matched one of the channel's exclude rules";
    case "RULE_NOT_INCLUDED":
      return "did not match the channel's include rule";
    case "NO_OFFER":
      return "looked for a row for the product in the offers file and found none (offers.whenMissing is skip)";
    case "OUT_OF_STOCK":
      return "the offers file says out of stock and the channel leaves those out (offers.excludeOutOfStock)";
    case "MISSING_AVAILABILITY_DATE":
      return "the offers file says preorder or backorder and gives no availability_date, which the channel requires with those (offers.requireAvailabilityDate)";
    case "MISSING_TITLE":
      return `looked for a name in ${chain(s)} and found none`;
    case "MISSING_DESCRIPTION":
      return `looked for a description of type ${list(s.description.types)} for target group ${orNone(s.description.targetGroup)} in ${chain(s)} and found none`;
    case "MISSING_LINK":
      return `looked for a product page link (offers file link, or the link template ${s.link.template === "" ? "(none set)" : `"${s.link.template}"`}) giving an absolute http(s) URL of at most ${s.link.maxLength} characters, and found none`;
    case "MISSING_CODE":
      return `looked for a checked national pharmacy code of each kind the channel requires (codes.required: ${list(s.codes.required)}), from the catalogue or the offers file, and found none of this kind`;
    case "MISSING_BRAND":
      return `looked for a brand name in ${chain(s)} and found none (brand.required)`;
    case "INVALID_ID":
      return `the id template "${s.id.template}" gives an empty id or one longer than ${s.id.maxLength} characters`;
    case "MISSING_CATEGORY":
      return `looked for a category path in ${chain(s)} and a categories.defaultPath, found neither, and the channel requires one`;
    case "MISSING_LANGUAGE":
      return `looked for the name and description in the channel's language (${s.locale}) and found them only in other languages; the channel publishes one language (title.fallback / description.fallback opt in)`;
    case "UNIT_MEASURE_MISMATCH":
      return "the quantity in the name differs from the package content, so no unit price is published (fix one of the two in the catalogue)";
    case "MISSING_GTIN":
      return "looked for a GTIN (EAN, GTIN-8/12/13/14, CIP13, ACL13) and found none; the channel needs one";
    case "INVALID_GTIN":
      return "found GTIN codes but none valid (length, check digit, restricted or coupon prefix)";
    case "NO_PRICE":
      return `looked for a price in ${list(s.price.sources)} and found none`;
    case "INVALID_PRICE":
      return "a price field is not a positive amount";
    case "INVALID_VAT":
      return "the price needs the product's VAT to be added, and its vat is not a known rate";
    case "NO_IMAGE":
      return (
        `looked for a ${formats(s)} photo of type ${list(s.images.photoTypes)}, at least ${s.images.minPixels} px, ` +
        `for target group ${orNone(s.images.targetGroup)}, tagged ${s.images.locales === "any" ? "with any locale" : s.images.locales === "chain" ? `${chain(s)} or untagged` : `${s.locale} or untagged`}, and found none`
      );
    case "IMAGE_FAILED":
      return "the main image could not be downloaded or converted (images.process.onError is exclude)";
    case "OFFER_REFUSED":
      return "the product's row in the offers file was refused, and the channel leaves such products out rather than publish the catalogue's price and stock (offers.whenRefused is exclude)";
    case "IMPLAUSIBLE_PRICE":
      return `the offers file's price is more than ${s.offers.maxPriceRatio} times the catalogue's public price, or less than a ${s.offers.maxPriceRatio === 0 ? "" : `1/${s.offers.maxPriceRatio} `}of it (offers.maxPriceRatio), so the product is left out rather than published at a wrong price`;
    case "MAPPING_ERROR":
      return "the record does not have the shape the catalogue documents";
    case "GTIN_DROPPED":
      return "an invalid GTIN was left out; a valid one was published";
    case "VAT_IGNORED":
      return "vat is invalid; a price that includes VAT was used instead";
    case "PRICE_SOURCE_SKIPPED":
      return "a price source had a bad value; the next one was used";
    case "SALE_IGNORED":
      return "the offer's sale price is not below the price: no sale published";
    case "DESCRIPTION_TRUNCATED":
      return `the description was cut at ${s.description.maxLength} characters`;
    case "TITLE_TRUNCATED":
      return `the title was cut at ${s.title.maxLength} characters`;
    case "IMAGE_FALLBACK":
      return "an image could not be processed; the catalogue's URL was published instead";
    case "IMAGE_DROPPED":
      return "an additional image could not be processed and was left out";
    case "CODE_INVALID":
      return "a national pharmacy code fails its check (docs/pharmacy-codes.md) and was left out of codes";
    case "OFFER_NOT_USED":
      return "the product's offers row was not used (offers.whenRefused is catalogue): the catalogue's price and availability were published";
    default:
      return undefined;
  }
}

/**
 * words(), once per code and channel: a report line per excluded product and channel asked for
 * the same sentence (built from the settings) hundreds of thousands of times a run.
 */
const said = new WeakMap<ChannelMapping, Map<string, string | undefined>>();
function wordsOnce(code: string, settings: ChannelMapping): string | undefined {
  let byCode = said.get(settings);
  if (byCode === undefined) said.set(settings, (byCode = new Map()));
  if (!byCode.has(code)) byCode.set(code, words(code, settings));
  return byCode.get(code);
}

/** "<words>: <detail>", or the detail alone for a code without words. */
export function reasonDetail(reason: Reason<string>, settings: ChannelMapping): string {
  const sentence = wordsOnce(reason.code, settings);
  if (sentence === undefined) return reason.detail ?? "";
  return reason.detail === undefined || reason.detail === "" ? sentence : `${sentence}: ${reason.detail}`;
}

/** A fallback in words: "name taken from nl (none in fr)". */
export function fallbackDetail(field: string, locale: string, settings: ChannelMapping): string {
  return `${field} taken from ${locale} (none in ${settings.locale})`;
}
