/**
 * A link without its tracking parameters: the page a shopper lands on, which
 * Kelkoo's `landing-page-url` wants ("the final URL, on the shop's domain,
 * without tracking": feed-donkey.io's Kelkoo build guide). String surgery
 * rather than the URL parser, so everything else stays byte for byte as the
 * link template wrote it (encoding, order, fragment).
 */

/**
 * Campaign and click-id parameters of the ad and analytics platforms: Google
 * Analytics' utm_* and _ga/_gl, Google Ads (gclid, gclsrc, gbraid, wbraid,
 * dclid), Meta (fbclid), Microsoft Ads (msclkid), Yandex (yclid), Mailchimp
 * (mc_cid, mc_eid), TikTok (ttclid), X (twclid), LinkedIn (li_fat_id),
 * Instagram (igshid), Google Shopping (srsltid).
 */
const TRACKING = /^(?:utm_[a-z0-9_]+|_ga|_gl|gclid|gclsrc|gbraid|wbraid|dclid|fbclid|msclkid|yclid|mc_cid|mc_eid|ttclid|twclid|li_fat_id|igshid|srsltid)$/i;

function isTracking(pair: string): boolean {
  const eq = pair.indexOf("=");
  const name = eq === -1 ? pair : pair.slice(0, eq);
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // A broken escape is not a tracking name: keep the pair as it is.
  }
  return TRACKING.test(decoded);
}

export function withoutTracking(url: string): string {
  const q = url.indexOf("?");
  if (q === -1) return url;
  const hash = url.indexOf("#", q);
  const query = url.slice(q + 1, hash === -1 ? undefined : hash);
  const fragment = hash === -1 ? "" : url.slice(hash);
  const kept = query.split("&").filter((pair) => pair !== "" && !isTracking(pair));
  return url.slice(0, q) + (kept.length > 0 ? "?" + kept.join("&") : "") + fragment;
}
