/**
 * A Google channel's `merchant` section: the Merchant Center account its feed goes to,
 * so that pharmafeed can read back what Google did with each product and push intraday
 * prices and stock (docs/google-merchant.md).
 */
import { z } from "zod";

export const MerchantSettings = z
  .object({
    /** The Merchant Center account id (digits, as in the Merchant Center URL). */
    accountId: z.string().regex(/^\d+$/, "the Merchant Center account id: digits"),
    /**
     * Path of the service account key file (JSON), relative to the channel file; usually
     * "${GOOGLE_APPLICATION_CREDENTIALS}". Unset, the run goes on and says the read-back could not start.
     */
    credentials: z.string(),
    /** The Merchant API's root URL; only tests point it elsewhere. */
    apiUrl: z.url().default("https://merchantapi.googleapis.com"),
    /** Products of this feed in the account: its feed label (default: the channel's country). */
    feedLabel: z.string().min(1).optional(),
    /** ... and content language (default: the channel's locale). */
    contentLanguage: z.string().min(2).optional(),
    /** Read statuses and issues back after every run (else only with `pharmafeed merchant sync`). */
    readAfterRun: z.boolean().default(true),
    alerts: z
      .object({
        /** Alert when the share of the feed's products Google disapproves rises by more than this (percentage points). */
        disapprovalJumpPercent: z.number().min(0).max(100).default(5),
        /** Alert when the account has an issue of these severities it did not have at the last read-back. */
        accountIssueSeverities: z.array(z.enum(["CRITICAL", "ERROR", "SUGGESTION"])).default(["CRITICAL", "ERROR"]),
      })
      .strict()
      .prefault({}),
    /** What Google may take of a run (src/merchant/limits.ts): past these, the push or read-back stops for this run. */
    limits: z
      .object({
        /** One request or token grant, from sending it to its last byte. */
        requestTimeoutSeconds: z.number().positive().max(3600).default(30),
        /** A 429/503 asking to wait longer ends the push or read-back until the next run. */
        maxRetryAfterSeconds: z.number().min(0).max(3600).default(120),
        /** A reply (a page of products) larger than this is refused once. */
        maxReplyMegabytes: z.number().positive().max(2048).default(64),
        /** Pages of one list (1000 products each). */
        maxPages: z.number().int().min(1).default(10_000),
        /** The whole read-back, and the whole push, of a run. */
        maxMinutes: z.number().positive().max(24 * 60).default(15),
      })
      .strict()
      .prefault({}),
    /** Intraday prices and stock through the API (generate --source snapshot). */
    push: z
      .object({
        enabled: z.boolean().default(false),
        /** Resource name or id of a supplemental API data source; default: one pharmafeed creates ("pharmafeed intraday <channel>"). */
        dataSource: z.string().min(1).optional(),
        /** Google's advice: a product updated at most twice a day; further changes wait for the nightly file. */
        maxPerProductPerDay: z.number().int().min(1).max(2).default(2),
        /** Pushed inputs expire after 30 days at Google: unchanged ones are pushed again after this many. */
        repushAfterDays: z.number().int().min(1).max(29).default(25),
        /** Share of the account's daily productInputs quota a refresh may use (the rest stays for others). */
        maxQuotaShare: z.number().min(0).max(1).default(0.5),
      })
      .strict()
      .prefault({}),
  })
  .strict();
export type MerchantSettings = z.infer<typeof MerchantSettings>;

/** A channel's account as a run uses it: key file resolved, feed label and language known. */
export interface MerchantChannel {
  channel: string;
  settings: MerchantSettings;
  /** Absolute path of the key file, or "" when the variable was not set. */
  keyFile: string;
  feedLabel: string;
  contentLanguage: string;
}
