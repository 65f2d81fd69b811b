/** The patient leaflet URL in the channel's locale chain (pil before spc). */
import type { Leaflet, Product } from "../catalogue/schemas/product.js";
import { resolveLocalized, type Resolved } from "./locale.js";
import { feedUrl } from "./feed-url.js";
import { isHttpUrl } from "./url.js";

function first(leaflets: readonly Leaflet[], chain: readonly string[], wantPil: boolean): Resolved | undefined {
  for (const l of leaflets) {
    if ((l.type === "pil") !== wantPil) continue;
    const url = resolveLocalized(l.url, chain);
    if (url === undefined) continue;
    // Encoded first (ASCII, RFC 3986: feed-url.ts), then judged, as photos are.
    const value = feedUrl(url.value.trim());
    if (isHttpUrl(value)) return { value, locale: url.locale };
  }
  return undefined;
}

export function leafletUrl(product: Product, chain: readonly string[]): Resolved | undefined {
  const leaflets = product.leaflets;
  if (!leaflets || leaflets.length === 0) return undefined;
  return first(leaflets, chain, true) ?? first(leaflets, chain, false);
}
