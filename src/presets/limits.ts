/**
 * What each marketplace accepts, in one table (shared reference: channels.md;
 * the public document behind each limit: PRESET_RULES in sources.ts).
 * Presets read their defaults from here; a channel file may lower or raise them.
 * Image minimums aim at 500 px: Google's floor is 100 px today, but third parties
 * report 500 px from January 2027, and Meta asks 500 px already.
 */
export interface ChannelLimits {
  idLength?: number;
  titleLength: number;
  descriptionLength: number;
  additionalImages: number;
  minImagePixels: number;
  acceptsWebp: boolean;
  urlLength: number;
}

export const CHANNEL_LIMITS = {
  google: { idLength: 50, titleLength: 150, descriptionLength: 5000, additionalImages: 10, minImagePixels: 500, acceptsWebp: true, urlLength: 2000 },
  meta: { idLength: 100, titleLength: 200, descriptionLength: 9999, additionalImages: 20, minImagePixels: 500, acceptsWebp: false, urlLength: 2000 },
  microsoft: { idLength: 50, titleLength: 150, descriptionLength: 10000, additionalImages: 10, minImagePixels: 220, acceptsWebp: false, urlLength: 2000 },
  idealo: { titleLength: 255, descriptionLength: 1000, additionalImages: 9, minImagePixels: 450, acceptsWebp: false, urlLength: 2000 },
  kelkoo: { titleLength: 80, descriptionLength: 300, additionalImages: 0, minImagePixels: 450, acceptsWebp: false, urlLength: 2000 },
  beslist: { titleLength: 150, descriptionLength: 5000, additionalImages: 5, minImagePixels: 450, acceptsWebp: false, urlLength: 2000 },
  // No public billiger.de document gives lengths or image sizes: the comparators' common values (PRESET_RULES says so).
  billiger: { titleLength: 255, descriptionLength: 5000, additionalImages: 10, minImagePixels: 450, acceptsWebp: false, urlLength: 2000 },
  // medizinfuchs' file carries no text and no image (it lists offers by PZN): the text limits only bound what mapping builds.
  medizinfuchs: { titleLength: 255, descriptionLength: 1000, additionalImages: 0, minImagePixels: 0, acceptsWebp: false, urlLength: 2000 },
  generic: { titleLength: 500, descriptionLength: 20000, additionalImages: 10, minImagePixels: 0, acceptsWebp: true, urlLength: 8000 },
} as const satisfies Record<string, ChannelLimits>;

export type LimitsName = keyof typeof CHANNEL_LIMITS;
