/**
 * The health policy table as data (config/policy/*.json, docs/policy.md): rows channel x country x
 * product class -> verdict, with limits, the source that states the rule, when it was verified and
 * when to look again. zod is the single source of the types; the loader (load.ts) reads files
 * through these schemas and says the file and JSON path of anything wrong.
 */
import { z } from "zod";
import { countryProblem } from "./countries.js";

/**
 * What kind of health product a catalogue record is (classes.ts). A product has one or more: a
 * reimbursed prescription medicine is both `prescription-medicine` and `reimbursable-medicine`.
 */
export const PRODUCT_CLASSES = [
  "prescription-medicine",
  "pharmacy-medicine",
  "general-sale-medicine",
  "reimbursable-medicine",
  "medical-device",
  "food-supplement",
  "biocide",
  "veterinary",
  "other",
] as const;
export type ProductClass = (typeof PRODUCT_CLASSES)[number];

/**
 * The marketplaces the table's rows name (a preset's, src/presets/policy-channels.ts). A channel
 * file may name another in policy.channel, for rows of its own: config/policy.ts refuses a name
 * that is neither one of these nor shared by a channel and a row (a typo would match no row).
 */
export const MARKETPLACES = ["google", "microsoft", "meta", "idealo", "kelkoo", "beslist", "medizinfuchs", "billiger", "generic"] as const;
export type Marketplace = (typeof MARKETPLACES)[number];

const ANY = "*";
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether YYYY-MM-DD is a day of the calendar (2026-02-30 and 2026-13-01 are not; Date would roll them over). */
export function isDay(text: string): boolean {
  if (!DATE.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().startsWith(text);
}

/** A calendar date that exists (2026-02-30 is refused). */
export const Day = z
  .string()
  .regex(DATE, "a date YYYY-MM-DD")
  .refine(isDay, "a date that exists");

/** `deny`, `allow`, or `allow-if-certified: <certification>` (the shop lists what it holds in shop.certifications). */
export const Verdict = z
  .string()
  .regex(/^(deny|allow|allow-if-certified: ?[a-z0-9][a-z0-9-]*)$/, 'deny, allow or "allow-if-certified: <certification>" (lower case, digits and -)');

export const PolicyLimits = z
  .object({
    /** The youngest buyer: carried into the item as policy.minAge for layouts (age_group, a shop's age gate). */
    minAge: z.number().int().min(1).max(99).optional(),
    /**
     * The catalogue's maximumDispenseQuantity (the most that may be sold online): `carry` puts it into the
     * item as policy.maxQuantity; `require` also leaves out a product that has none.
     */
    maxQuantity: z.enum(["carry", "require"]).optional(),
    /** `deny`: a product whose catalogue record says requiresLegalText is left out (an ad cannot carry the text). */
    legalText: z.literal("deny").optional(),
    /** A product whose name (any language) contains one of these words is left out (prescription terms in ads). */
    bannedTerms: z.array(z.string().trim().min(1)).min(1).optional(),
  })
  .strict();
export type PolicyLimits = z.infer<typeof PolicyLimits>;

export const PolicyRow = z
  .object({
    /** The marketplace (a preset's policy channel: google, meta, microsoft, idealo, ...), or "*". */
    channel: z.string().regex(/^(\*|[a-z][a-z0-9-]*)$/, 'a channel name (lower case) or "*"'),
    /** ISO 3166 alpha-2 of the feed's country (the channel's `country`), or "*". */
    country: z
      .string()
      .regex(/^(\*|[A-Z]{2})$/, 'an ISO 3166 country code (FR, BE, ...) or "*"')
      .superRefine((code, ctx) => {
        // zod runs this after a failed regex too: only a code of the right shape is looked up.
        const problem = code === ANY || !/^[A-Z]{2}$/.test(code) ? undefined : countryProblem(code);
        if (problem !== undefined) ctx.addIssue({ code: "custom", message: `${problem} or "*"` });
      }),
    class: z.enum([...PRODUCT_CLASSES, ANY]),
    verdict: Verdict,
    limits: PolicyLimits.optional(),
    /** The page that states the rule: an http(s) URL, or `docs/...` for pharmafeed's own defaults. */
    source: z.string().regex(/^(https?:\/\/\S+|docs\/\S+)$/, "an http(s) URL or a docs/ path"),
    /** When someone last checked the source says this. */
    verified: Day,
    /** When to check it again (`pharmafeed policy --check` flags rows past it). */
    recheck: Day,
    /** The rule in one sentence, as the source says it. */
    rule: z.string().trim().min(1),
  })
  .strict();
export type PolicyRow = z.infer<typeof PolicyRow>;

export const PolicyFile = z
  .object({
    policy: z.literal(1),
    rows: z.array(PolicyRow),
  })
  .strict();

/**
 * A row as the run uses it: a file's row, or one a channel's legacy setting made
 * (eligibility.allowPrescription ...), which has no verified date of its own.
 */
export interface PolicyRule {
  channel: string;
  country: string;
  class: ProductClass | "*";
  verdict: string;
  limits?: PolicyLimits;
  source: string;
  verified?: string;
  recheck?: string;
  rule: string;
  /** Where the row was read: `config/policy/google.json`, `channel setting eligibility.allowMedicines`. */
  from: string;
}

export function ruleKey(r: Pick<PolicyRule, "channel" | "country" | "class">): string {
  return `${r.channel} ${r.country} ${r.class}`;
}

/** The certification an `allow-if-certified: x` verdict asks for; undefined for deny / allow. */
export function certificationOf(verdict: string): string | undefined {
  const m = /^allow-if-certified: ?(.+)$/.exec(verdict);
  return m?.[1];
}
