/**
 * Everything mapping needs to know about one channel. The config layer embeds
 * this schema in each channel file and presets fill it in; every field has a
 * default so an empty object is a valid (generic, French, EUR) channel.
 * Objects are strict so a typo in a channel file is an error, not a silent default.
 */
import { z } from "zod";
import { ImageProcessSettings } from "../images/settings.js";
import { GTIN_OUTPUTS } from "./gtin.js";
import { BUILTIN_RULES, countryProblem, PolicyRow } from "../policy/index.js";
import { Rule } from "./rules.js";
import { MASS_BASES, VOLUME_BASES } from "./unit-pricing.js";

/** Where a price may come from, tried in the channel's order. */
export const PRICE_SOURCES = [
  /** The offers file's price (VAT included). */
  "offer",
  /** publicPrice: includes VAT. */
  "publicPrice",
  /** ttcPrice: includes VAT. */
  "ttcPrice",
  /** tfrPrice: includes VAT. */
  "tfrPrice",
  /** manufacturerPrice plus the product's VAT. */
  "manufacturerPriceWithVat",
] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

const Locale = z.string().regex(/^[a-z]{2}(?:[-_][A-Za-z]{2})?$/, "a language code such as fr");
const Template = z.string().max(2000);

export const IdSettings = z
  .object({
    /** Template of the item id; `{{id}}` is the catalogue id. */
    template: Template.default("{{id}}"),
    /** Longer ids are refused (INVALID_ID): Google and Microsoft allow 50. */
    maxLength: z.number().int().min(1).default(50),
  })
  .strict();

export const PriceSettings = z
  .object({
    /** Price sources in order of preference; the first with a value wins. */
    sources: z.array(z.enum(PRICE_SOURCES)).min(1).default(["offer", "publicPrice", "manufacturerPriceWithVat"]),
    /** "12.99" or "12,99". Thousands are never separated. */
    decimalSeparator: z.enum([".", ","]).default("."),
    /** "12.99 EUR" (Google, Meta) or the bare number (idealo, Kelkoo). */
    currency: z.enum(["suffix", "none"]).default("suffix"),
  })
  .strict();

export const OfferSettings = z
  .object({
    /** A product the offers file does not list: left out (NO_OFFER) or sold at the catalogue price, in stock. */
    whenMissing: z.enum(["skip", "catalogue"]).default("catalogue"),
    /**
     * A product whose offers row was refused (a bad field) or whose offer price is implausible:
     * left out with the row's reason (OFFER_REFUSED / IMPLAUSIBLE_PRICE), so that a wrong price is
     * never published instead of the shop's; or published at the catalogue's price, in stock, with
     * the warning OFFER_NOT_USED.
     */
    whenRefused: z.enum(["exclude", "catalogue"]).default("exclude"),
    /**
     * An offer price more than this many times the catalogue's publicPrice, or less than 1/this
     * of it, is implausible (IMPLAUSIBLE_PRICE): "189900" typed for 1,899.00 is 100x.
     * 0 turns the check off.
     */
    maxPriceRatio: z.union([z.literal(0), z.number().min(1.5)]).default(5),
    /** Leave out items whose offer says out of stock (OUT_OF_STOCK) instead of publishing them as such. */
    excludeOutOfStock: z.boolean().default(false),
    /**
     * Leave out preorder and backorder items whose offer has no `availability_date`
     * (MISSING_AVAILABILITY_DATE): Google and Microsoft require the date with those two.
     */
    requireAvailabilityDate: z.boolean().default(false),
  })
  .strict();

export const GtinSettings = z
  .object({
    /** Output width: GTIN-13 where the code has one (else as received), only GTIN-13s (beslist), as received, or always 14 digits. */
    output: z.enum(GTIN_OUTPUTS).default("gtin13-when-possible"),
    /**
     * Publish products without a valid GTIN, per Google's identifier_exists rule: with brand and
     * mpn (supplierReference) they are identified by those, else sent with identifier_exists=no.
     */
    allowIdentifierExistsNo: z.boolean().default(false),
    /** Leave out products without a valid GTIN (MISSING_GTIN / INVALID_GTIN) unless the setting above is on. */
    required: z.boolean().default(true),
  })
  .strict();

export const BrandSettings = z
  .object({
    /** Leave out products without a brand name (MISSING_BRAND). */
    required: z.boolean().default(false),
  })
  .strict();

/** The item's `codes` (national-codes.ts), by name. */
export const ITEM_CODES = ["cnk", "pzn", "zi", "aic", "cn", "cip7", "cip13", "acl13"] as const;

export const CodeSettings = z
  .object({
    /**
     * Leave out products without a checked code of each of these (MISSING_CODE): a comparator that
     * lists products by PZN (medizinfuchs) cannot use one without.
     */
    required: z.array(z.enum(ITEM_CODES)).default([]),
  })
  .strict();

export const ImageSettings = z
  .object({
    /** Photo locales: `channel` = tagged with the channel locale (or untagged), `chain` = any locale of the fallback chain, `any` = ignore tags. */
    locales: z.enum(["channel", "chain", "any"]).default("channel"),
    /** Target group a photo must be tagged with (untagged photos pass); null accepts any. */
    targetGroup: z.string().nullable().default("public"),
    /** Photo types in order of preference; `frontal` means the frontal photos. Types not listed are not used. */
    photoTypes: z.array(z.string().min(1)).min(1).default(["packshot", "productshot", "frontal", "lifestyle_image"]),
    /** Image file types the channel accepts. The largest accepted rendition is published. */
    formats: z
      .object({
        /** JPEG renditions (photos: thumbnail..huge; frontals: mediumJpeg, largeJpg). */
        jpeg: z.boolean().default(true),
        /** PNG renditions (frontals: thumbnail, medium, huge; transparent). */
        png: z.boolean().default(true),
        /** WebP renditions (...Webp keys). Off unless the channel accepts WebP. */
        webp: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    /** Smallest side in pixels, using the spec's sizes (thumbnail 200, medium 450, large 900, huge 1500). */
    minPixels: z.number().int().min(0).default(500),
    /** Additional images after the main one. */
    maxAdditional: z.number().int().min(0).default(10),
    /** Longer URLs are not used (Google: 2000). */
    maxUrlLength: z.number().int().min(1).default(2000),
    /** Leave out products without a usable photo (NO_IMAGE). */
    required: z.boolean().default(true),
    /**
     * Download, fit, flatten and convert the chosen photos, store them under output/images/ and
     * publish `<output.publicBaseUrl>/images/<name>` instead (needs publicBaseUrl). Off when absent.
     */
    process: ImageProcessSettings.optional(),
  })
  .strict();

export const TitleSettings = z
  .object({
    /** Template over the product: {{brand}}, {{name}}, {{packageContent}}, ... (see README). */
    template: Template.default("{{brand}} {{name}}"),
    /** Cut on a word boundary at this many characters. */
    maxLength: z.number().int().min(1).default(150),
    /**
     * Read the name in `fallbackLocales` when the channel's language has none. Off by default: one
     * language per feed (Google, Meta, marketplaces), and a product without a name in the
     * channel's language is left out (MISSING_LANGUAGE).
     */
    fallback: z.boolean().default(false),
    /** Emoji and decorative symbols in titles: kept, or dropped where the channel's editorial rules refuse them (Google, Microsoft). */
    emoji: z.enum(["keep", "drop"]).default("keep"),
  })
  .strict();

export const DescriptionSettings = z
  .object({
    /** Description types in order of preference, per locale of the chain. */
    types: z.array(z.string().min(1)).min(1).default(["full_description", "properties", "indication", "usage", "composition"]),
    /** Target group a description must be tagged with (untagged pass); null accepts any. */
    targetGroup: z.string().nullable().default("public"),
    /** Cut on a word boundary at this many characters. */
    maxLength: z.number().int().min(1).default(5000),
    /** Leave out products without a description (MISSING_DESCRIPTION). */
    required: z.boolean().default(true),
    /**
     * Read descriptions in `fallbackLocales` when the channel's language has none. Off by default:
     * a required description found only in other languages leaves the product out (MISSING_LANGUAGE);
     * an optional one is left empty.
     */
    fallback: z.boolean().default(false),
  })
  .strict();

export const CategorySettings = z
  .object({
    /** Public category id -> Google taxonomy id; the nearest mapped ancestor of the product's category wins. */
    googleCategoryMap: z.record(z.string().regex(/^\d+$/, "a category id of the catalogue (digits)"), z.union([z.string().min(1), z.number().int()])).default({}),
    /** Taxonomy id when no ancestor is mapped (e.g. 491, Health & Beauty > Health Care); none by default. */
    defaultGoogleCategory: z.union([z.string().min(1), z.number().int()]).optional(),
    /** Joins the category path into product_type. */
    separator: z.string().default(" > "),
    /**
     * Category path published when the product has none in the channel's locale chain
     * (Kelkoo's merchant-category is mandatory); none by default.
     */
    defaultPath: z.string().trim().min(1).optional(),
    /** Leave out products with no category path and no defaultPath (MISSING_CATEGORY). */
    required: z.boolean().default(false),
  })
  .strict();

export const EligibilitySettings = z
  .object({
    /**
     * Before the policy table (docs/policy.md): when set, a row of the channel's own for prescription
     * medicines (src/policy/legacy.ts). Unset, the table decides.
     */
    allowPrescription: z.boolean().optional(),
    /** When set, a row of the channel's own for every medicine class (false: prescription ones too). */
    allowMedicines: z.boolean().optional(),
    /** When set, a row of the channel's own for veterinary medicines. */
    allowVeterinary: z.boolean().optional(),
    /** When set, only products matching this rule are published. */
    include: Rule.optional(),
    /** Products matching any of these rules are left out. */
    exclude: z.array(Rule).default([]),
  })
  .strict();

/** A row in effect for the channel: a table row and where it was read. */
export const PolicyRuleSetting = PolicyRow.extend({ from: z.string().default("the channel's policy.rows") });

export const PolicySettings = z
  .object({
    /** The marketplace the rows name (the preset sets it: google, meta, ...); `generic` for any other. */
    channel: z.string().regex(/^[a-z][a-z0-9-]*$/).default("generic"),
    /**
     * The rows in effect. The config loader puts the shipped table (config/policy/), the config's
     * policy files and rows, then the channel file's own rows here; alone (a library user), the
     * two built-in rows (src/policy/defaults.ts).
     */
    rows: z.array(PolicyRuleSetting).default(() => BUILTIN_RULES.map((r) => ({ ...r }))),
    /**
     * OTC medicines this rule matches are `general-sale-medicine` instead of `pharmacy-medicine`
     * (the catalogue does not tell them apart; docs/policy.md). Judged before the item is built:
     * catalogue paths (`atc`, `catalogCategories.id`) and categoryId, brandId, healthClasses.
     * The config's policy.generalSale unless the channel has its own.
     */
    generalSale: Rule.optional(),
    /** What the shop holds (shop.certifications, filled by the loader): allow-if-certified rows need one. */
    certifications: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/)).default([]),
  })
  .strict();

export const LinkSettings = z
  .object({
    /** URL template; inserted values are URL-encoded ({{{x}}} inserts raw). Empty = only offers-file links. */
    template: Template.default(""),
    /** Longer links are refused (MISSING_LINK). */
    maxLength: z.number().int().min(1).default(2000),
    /** The shop's url for `{{{shopUrl}}}`: filled by the loader from shop.url (docs/shops.md), never written in a channel file. */
    shopUrl: z.string().default(""),
  })
  .strict();

export const UnitPricingSettings = z
  .object({
    /**
     * What volumes are priced per: one of Google's bases (answer 6324490: 1, 10, 100, 2, 4, 8 ml/cl/l,
     * 75 cl, 750 ml). Default 1 l, the unit of Directive 98/6/EC.
     */
    volumeBase: z.string().refine((v) => VOLUME_BASES.includes(v), { message: `one of ${VOLUME_BASES.join(", ")}` }).default("1 l"),
    /** What masses are priced per: 1, 10, 100, 2, 4, 8 mg/g/kg, 50 kg, 1000 kg. Default 1 kg. */
    massBase: z.string().refine((v) => MASS_BASES.includes(v), { message: `one of ${MASS_BASES.join(", ")}` }).default("1 kg"),
  })
  .strict();

export const ChannelMapping = z
  .object({
    /** Language of the feed: localized fields are read in this locale first. */
    locale: Locale.default("fr"),
    /**
     * Locales tried in order when a field is missing or empty in `locale`: brand names (language-neutral),
     * categories, photos, leaflets and the link's seoName always; titles and descriptions only where
     * `title.fallback` / `description.fallback` opt in.
     */
    fallbackLocales: z.array(Locale).default(["en"]),
    /** ISO 3166 country of the feed. */
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, "an ISO 3166 country code in capitals (FR, BE, ...)")
      .superRefine((code, ctx) => {
        const problem = /^[A-Z]{2}$/.test(code) ? countryProblem(code) : undefined;
        if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
      })
      .default("FR"),
    /** ISO 4217 currency of every price. */
    currency: z.string().regex(/^[A-Z]{3}$/).default("EUR"),
    id: IdSettings.prefault({}),
    price: PriceSettings.prefault({}),
    offers: OfferSettings.prefault({}),
    gtin: GtinSettings.prefault({}),
    brand: BrandSettings.prefault({}),
    codes: CodeSettings.prefault({}),
    images: ImageSettings.prefault({}),
    title: TitleSettings.prefault({}),
    description: DescriptionSettings.prefault({}),
    categories: CategorySettings.prefault({}),
    eligibility: EligibilitySettings.prefault({}),
    policy: PolicySettings.prefault({}),
    link: LinkSettings.prefault({}),
    unitPricing: UnitPricingSettings.prefault({}),
    /** Extra fields: name -> template, rendered into `custom.<name>` of every item. */
    custom: z.record(z.string().regex(/^[A-Za-z_][\w-]*$/), Template).default({}),
  })
  .strict();

export type ChannelMappingInput = z.input<typeof ChannelMapping>;
export type ChannelMapping = z.output<typeof ChannelMapping>;
