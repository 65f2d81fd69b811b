/**
 * Channel presets: a layout under templates/ plus the mapping defaults that
 * channel needs (limits from limits.ts, policies from channels.md). A channel
 * file names a preset and overrides any of these defaults.
 *
 * What health products a preset's feeds may carry is not here but in the health
 * policy table (config/policy/, docs/policy.md), by the marketplace a preset names
 * (policy-channels.ts) and the channel's country: Meta's "no medicines" is a row.
 */
import type { ChannelMappingInput } from "../mapping/settings.js";
import { CHANNEL_LIMITS, type LimitsName } from "./limits.js";

export interface Preset {
  name: string;
  describe: string;
  /** Folder under templates/. */
  layout: string;
  limits: LimitsName;
  mapping: ChannelMappingInput;
}

function fromLimits(name: LimitsName): ChannelMappingInput {
  const limits = CHANNEL_LIMITS[name];
  return {
    ...("idLength" in limits ? { id: { maxLength: limits.idLength } } : {}),
    title: { maxLength: limits.titleLength },
    description: { maxLength: limits.descriptionLength },
    images: {
      minPixels: limits.minImagePixels,
      maxAdditional: limits.additionalImages,
      maxUrlLength: limits.urlLength,
      formats: { webp: limits.acceptsWebp },
    },
  };
}

/** Merges preset-specific choices over the limits, one level deep per section. */
function preset(name: string, describe: string, layout: string, limits: LimitsName, extra: ChannelMappingInput = {}): Preset {
  const base = fromLimits(limits) as Record<string, unknown>;
  const mapping: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const under = base[key];
    mapping[key] =
      value && typeof value === "object" && !Array.isArray(value) && under && typeof under === "object"
        ? { ...(under as object), ...(value as object) }
        : value;
  }
  return { name, describe, layout, limits, mapping: mapping as ChannelMappingInput };
}

const googleMapping: ChannelMappingInput = {
  // Google's rule: without a valid GTIN, brand + mpn identify the product; with neither GTIN nor
  // both brand and mpn, it is published with identifier_exists=no (answer 6324478).
  gtin: { allowIdentifierExistsNo: true },
  // brand is a required attribute of every Google (and Microsoft) item.
  brand: { required: true },
  price: { currency: "suffix", decimalSeparator: "." },
  // Google's editorial requirements (Merchant Center answer 6150244) refuse emoji and gimmicky symbols in titles.
  title: { emoji: "drop" },
  // availability_date is required with preorder and backorder (answers 6324448, 6324470).
  offers: { requireAvailabilityDate: true },
};

const metaMapping: ChannelMappingInput = {
  // Meta needs one of brand / mpn / gtin: the brand is the one pharmacy data always has.
  gtin: { required: false },
  brand: { required: true },
  price: { currency: "suffix", decimalSeparator: "." },
};

const bareNumber: ChannelMappingInput = { price: { currency: "none", decimalSeparator: "." } };

const lenient: ChannelMappingInput = {
  gtin: { required: false },
  images: { required: false },
  description: { required: false },
  price: { currency: "none", decimalSeparator: "." },
};

/**
 * German comparators: German text, and the base price (Grundpreis) per 1 l or 1 kg, the only
 * units PAngV 2022 § 5 (1) allows for packaged goods (the mapping default, held here on purpose).
 */
const german: ChannelMappingInput = { locale: "de", country: "DE", unitPricing: { volumeBase: "1 l", massBase: "1 kg" } };

/**
 * medizinfuchs lists offers by PZN: a product without a checked one is left out (MISSING_CODE).
 * Its file carries no text, no GTIN and no image, so none is required; the title, which mapping
 * builds all the same, may come from any language of the chain. Prices `12,99`: the one medizinfuchs file
 * seen in public (sources.ts, MFA); medizinfuchs publishes no format.
 */
const medizinfuchsMapping: ChannelMappingInput = {
  ...german,
  fallbackLocales: ["en", "fr", "nl"],
  title: { fallback: true },
  description: { required: false },
  images: { required: false },
  gtin: { required: false },
  codes: { required: ["pzn"] },
  price: { currency: "none", decimalSeparator: "," },
};

export const PRESETS: Record<string, Preset> = Object.fromEntries(
  [
    preset("google", "Google Merchant Center, RSS 2.0 XML with the g: namespace", "google", "google", googleMapping),
    preset("google-tsv", "Google Merchant Center, tab-separated text", "google-tsv", "google", googleMapping),
    preset("meta", "Meta (Facebook, Instagram) catalog, CSV", "meta", "meta", metaMapping),
    preset("meta-xml", "Meta catalog, RSS XML", "meta-xml", "meta", metaMapping),
    preset("microsoft", "Microsoft Merchant Center, Google-format XML", "google", "microsoft", googleMapping),
    preset("idealo", "idealo, CSV", "idealo", "idealo", { ...bareNumber, gtin: { required: false } }),
    // Kelkoo's merchant-category is mandatory: a product without one is left out (MISSING_CATEGORY)
    // unless the channel sets categories.defaultPath.
    preset("kelkoo", "Kelkoo, XML with CDATA", "kelkoo", "kelkoo", { ...bareNumber, categories: { required: true } }),
    // beslist.nl wants a 13-digit EAN on every product; its shop integration writes prices "12,99".
    preset("beslist", "beslist.nl / Kieskeurig, XML", "beslist", "beslist", {
      price: { currency: "none", decimalSeparator: "," },
      gtin: { required: true, output: "gtin13-only" },
    }),
    preset("medizinfuchs", "medizinfuchs.de, CSV by PZN (`;`, prices 12,99)", "medizinfuchs", "medizinfuchs", medizinfuchsMapping),
    // billiger.de identifies an offer by EAN, PZN or brand + mpnr: none of them alone is required.
    preset("billiger", "billiger.de (solute), tab-separated CSV with pzn", "billiger", "billiger", {
      ...german,
      price: { currency: "none", decimalSeparator: "." },
      gtin: { required: false },
    }),
    // idealo.de's CSV importer: the idealo columns plus `pzns`, idealo's limits (the same importer); `idealo` stays as it is.
    preset("idealo-de", "idealo.de, CSV with pzns", "idealo-de", "idealo", { ...german, ...bareNumber, gtin: { required: false } }),
    preset("generic-csv", "Any CSV consumer: every field, nothing required", "generic-csv", "generic", lenient),
    preset("generic-json", "Any JSON consumer: the whole item, one array", "generic-json", "generic", lenient),
    preset("generic-ndjson", "Any NDJSON consumer: the whole item, one per line", "generic-ndjson", "generic", lenient),
  ].map((p) => [p.name, p]),
);

export const PRESET_NAMES = Object.keys(PRESETS);
