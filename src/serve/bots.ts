/**
 * Marketplace fetchers recognised by their User-Agent, for the status page's
 * "last fetch" column. Patterns are the agents each marketplace documents (or
 * is seen using); anything else is a browser, a monitor or a stranger and is
 * not recorded per marketplace.
 */
export interface Marketplace {
  id: string;
  label: string;
  pattern: RegExp;
}

export const MARKETPLACES: readonly Marketplace[] = [
  { id: "google", label: "Google", pattern: /Googlebot|AdsBot-Google|Storebot-Google|Google-Shopping|GoogleProducer|Google-Merchant/i },
  { id: "meta", label: "Meta", pattern: /facebookexternalhit|facebookcatalog|meta-externalagent|Facebot/i },
  { id: "microsoft", label: "Microsoft", pattern: /bingbot|BingPreview|msnbot|adidxbot/i },
  { id: "idealo", label: "idealo", pattern: /idealo/i },
  { id: "kelkoo", label: "Kelkoo", pattern: /kelkoo/i },
  { id: "beslist", label: "beslist", pattern: /beslist|kieskeurig/i },
  { id: "pinterest", label: "Pinterest", pattern: /Pinterest/i },
];

export function marketplaceOf(userAgent: string | undefined): Marketplace | undefined {
  if (!userAgent) return undefined;
  return MARKETPLACES.find((m) => m.pattern.test(userAgent));
}
