/**
 * Merchant API product names: accounts/{account}/products/{product}, where {product} is
 * contentLanguage~feedLabel~offerId, sent as unpadded base64url (RFC 4648 section 5)
 * when any part holds a character a path segment cannot carry as is (/, %, ~ ...).
 * Plain ids stay plain so that a name in a log or a URL reads as the offer id.
 */

export interface ProductKey {
  contentLanguage: string;
  feedLabel: string;
  offerId: string;
}

/** Characters that may stand in a plain {product} segment. */
const PLAIN = /^[A-Za-z0-9._-]+$/;

export function productSegment(key: ProductKey): string {
  const parts = [key.contentLanguage, key.feedLabel, key.offerId];
  if (parts.every((p) => PLAIN.test(p))) return parts.join("~");
  return Buffer.from(parts.join("~"), "utf8").toString("base64url");
}

/**
 * The key of a {product} segment in either form, or undefined. A plain segment has
 * exactly two tildes; anything else is decoded as base64url and must then have them.
 */
export function parseProductSegment(segment: string): ProductKey | undefined {
  const split = (text: string): ProductKey | undefined => {
    const first = text.indexOf("~");
    const second = first < 0 ? -1 : text.indexOf("~", first + 1);
    if (first <= 0 || second <= first + 1 || second === text.length - 1) return undefined;
    return { contentLanguage: text.slice(0, first), feedLabel: text.slice(first + 1, second), offerId: text.slice(second + 1) };
  };
  if (segment.includes("~")) return split(segment);
  if (!/^[A-Za-z0-9_-]+$/.test(segment)) return undefined;
  return split(Buffer.from(segment, "base64url").toString("utf8"));
}

export function productName(account: string, key: ProductKey): string {
  return `accounts/${account}/products/${productSegment(key)}`;
}
