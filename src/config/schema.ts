/**
 * The config files' schemas: the main file (config/pharmafeed.json) and one
 * file per channel (config/channels/*.json). Strict everywhere: a typo is an
 * error naming the file and the JSON path, never a silently ignored key.
 */
import { z } from "zod";
import { RetryPolicy, Timeouts } from "../catalogue/options.js";
import { ChannelMapping } from "../mapping/settings.js";
import { milliseconds } from "../core/duration.js";
import { PRESET_NAMES } from "../presets/index.js";
import { PolicyRow } from "../policy/index.js";
import { Rule } from "../mapping/rules.js";
import { NotifySettings } from "../notify/settings.js";
import { MerchantSettings } from "../merchant/settings.js";
import { HistorySettings } from "../history/settings.js";
import { Destinations } from "../destinations/settings.js";
import { SnapshotSettings } from "./snapshot-settings.js";
import { OFFER_FIELDS } from "../mapping/offers.js";
import { suggestOfferField } from "../mapping/offers-columns.js";

/** `an offers field is needed (did you mean "price"? known: id, gtin, ...)`; issues.ts adds what was found. */
function offerFieldExpected(input: unknown): string {
  const near = typeof input === "string" ? suggestOfferField(input) : undefined;
  return `an offers field is needed (${near === undefined ? "" : `did you mean "${near}"? `}known: ${OFFER_FIELDS.join(", ")})`;
}

export const SourceConfig = z
  .object({
    /** Without /v4. CATALOGUE_API_BASE_URL wins over it (the sandbox uses that). */
    baseUrl: z.string().optional(),
    /** Prefer a reference: "${CATALOGUE_API_KEY_ID}". The environment variable wins anyway. */
    keyId: z.string().optional(),
    /** Always a reference: "${CATALOGUE_API_KEY_SECRET}". Never written in a file. */
    keySecret: z.string().optional(),
    /** For the User-Agent the service asks for: an e-mail or URL of whoever runs the feeds. */
    contact: z.string().optional(),
    timeouts: Timeouts.optional(),
    rateLimit: z.number().int().min(1).optional(),
    rateWindowMs: milliseconds(1).optional(),
    retry: RetryPolicy.optional(),
    /** Unit of the catalogue's prices: cents (what the service sends) or euro (the spec's wording). */
    priceUnit: z.enum(["cents", "euro"]).default("cents"),
    /** products/stream filter (the API's filter language). */
    filter: z.record(z.string(), z.unknown()).default({ status: "active" }),
    /** products/stream sorting; a stable order is what makes a cut stream resumable. */
    sorting: z.record(z.string(), z.unknown()).default({ id: "ASC" }),
    /** Where generate reads the catalogue from by default, and when a delta gives way to a full read (README, Fresh feeds). */
    sync: z
      .object({
        /** full: the whole catalogue; delta: changes since the snapshot, merged into it; snapshot: no request at all. */
        default: z.enum(["full", "delta", "snapshot"]).default("full"),
        /** A delta or a refresh from a snapshot older than this reads in full instead. */
        maxAgeHours: z.number().positive().default(48),
        /** A delta of more than this share of the snapshot's products reads in full instead. */
        maxDeltaShare: z.number().min(0).max(1).default(0.2),
        /** A delta asks for changes since the last sync minus this margin (clock skew, changes during the last sync). */
        marginSeconds: z.number().int().min(0).default(900),
      })
      .strict()
      .prefault({}),
  })
  .strict();

/** HTTP Basic credentials of a status page (environment references; checked by `serve`). */
export const StatusCredentials = z.object({ user: z.string(), password: z.string() }).strict();

export const MainConfig = z
  .object({
    source: SourceConfig,
    /** Shown in the feed headers (RSS channel title, link, description); with `shops`, each shop file says its own. */
    shop: z
      .object({
        name: z.string().min(1),
        url: z.url(),
        description: z.string().default(""),
        /**
         * What the shop is certified for (docs/policy.md): `allow-if-certified: <name>` rows of the
         * health policy table allow a product only when the name is listed here.
         */
        certifications: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lower case, digits and -")).default([]),
      })
      .strict()
      .optional(),
    /** The health policy table (docs/policy.md): the shipped one, with the shop's own rows over it. */
    policy: z
      .object({
        /** A folder of policy files that replaces the shipped config/policy/ (relative to this file). */
        table: z.string().min(1).optional(),
        /** Policy files whose rows replace the table's rows of the same channel, country and class, in order. */
        files: z.array(z.string().min(1)).default([]),
        /** Rows written here, over the table and the files. */
        rows: z.array(PolicyRow).default([]),
        /** OTC medicines this rule matches are general sale, for every channel without its own (docs/policy.md). */
        generalSale: Rule.optional(),
      })
      .strict()
      .prefault({}),
    output: z
      .object({
        /** Relative to this file. */
        dir: z.string().min(1).default("output"),
        /** Where `serve` is reachable from the marketplaces (image links, status page). */
        publicBaseUrl: z.url().optional(),
      })
      .strict()
      .prefault({}),
    /** Pharmacy prices and stock per product (CSV or JSON), relative to this file. */
    offers: z
      .object({
        file: z.string().min(1),
        /** Taken from the file extension when omitted. */
        format: z.enum(["csv", "json"]).optional(),
        /**
         * The file's own headers (CSV) or keys (JSON) -> our field names: `{"EAN": "gtin", "Prix TTC": "price"}`.
         * Matched as written, then trimmed and in any case; a header the file lacks is no error.
         */
        columns: z.record(z.string().min(1), z.enum(OFFER_FIELDS, { error: (issue) => offerFieldExpected(issue.input) })).default({}),
        /** Headers (or keys) whose cells are never read: the extra columns of a POS export (`Désignation`). */
        ignoreColumns: z.array(z.string().min(1)).default([]),
        /** Fewer accepted rows than this share of the data rows refuses the file (nothing published; --force overrides). */
        minAcceptedPercent: z.number().min(0).max(100).default(95),
        /** Accepted offers this much below the last run's (manifest.json) refuse the file (nothing published; --force overrides). */
        maxDropPercent: z.number().min(0).max(100).default(20),
      })
      .strict()
      .optional(),
    /** Channel files, relative to this file; with `shops`, the channels of every shop that names none of its own. */
    channels: z.array(z.string().min(1)).min(1).optional(),
    /**
     * Many shops from one catalogue read (docs/shops.md): shop files (relative to this file), or a folder
     * of them (every `*.json` in it). Without it the config is one shop, as it always was.
     */
    shops: z.union([z.array(z.string().min(1)).min(1), z.string().min(1)]).optional(),
    /** `pharmafeed serve`: where it listens, the status page's credentials, its log lines. */
    serve: z
      .object({
        /** 127.0.0.1 behind a reverse proxy (TLS); 0.0.0.0 to be reached directly. */
        host: z.string().min(1).default("127.0.0.1"),
        port: z.number().int().min(0).max(65535).default(8080),
        /**
         * HTTP Basic credentials of the status page at `/`; without them the page is not
         * served. Environment references ("${PHARMAFEED_STATUS_PASSWORD}"); checked by `serve`.
         */
        status: StatusCredentials.optional(),
        /** Access log lines on stderr: `time level message k=v` or one JSON object per line. */
        logFormat: z.enum(["plain", "json"]).default("plain"),
        /** On SIGTERM, how long downloads in progress may take to finish before they are cut. */
        shutdownGraceMs: z.number().int().min(0).max(600_000).default(30_000),
        /** How often the last fetch per marketplace is saved to output/serve-state.json. */
        stateSaveMs: milliseconds(1000).default(60_000),
        /** Feeds older than this are stale: /healthz says so, /monitor answers 503, `notify` alerts once. */
        maxFeedAgeHours: z.number().positive().max(24 * 365).default(36),
      })
      .strict()
      .prefault({}),
    /** The run lock in the output directory (README, "One run at a time"). */
    lock: z
      .object({
        /**
         * A lock whose heartbeat (touched every staleAfterMs / 10, at most 30 s) is older than this is
         * taken over: a run killed on another host or in a container that is gone.
         */
        staleAfterMs: milliseconds(10_000).default(600_000),
      })
      .strict()
      .prefault({}),
    /** Alerts (webhooks, e-mail) on a failed run, a tripped gate, a refused offers file, stale feeds. */
    notify: NotifySettings.optional(),
    /** Every published version of every feed, kept for the last runs (docs/history.md). */
    history: HistorySettings.prefault({}),
    /** Where every channel's published files are pushed, unless its own file lists its own (docs/destinations.md). */
    destinations: Destinations.optional(),
    /** With `shops`: the shared snapshot's copy in a bucket, for shards on machines without a shared disk (docs/shops.md). */
    snapshot: SnapshotSettings.optional(),
  })
  .strict()
  .refine((config) => config.snapshot === undefined || config.shops !== undefined, { path: ["snapshot"], message: "the shared snapshot is that of a config with `shops` (docs/shops.md): without them there is no shard to share it with" })
  .refine((config) => config.channels !== undefined || config.shops !== undefined, { path: ["channels"], message: "a list of channel files is needed (or `shops`: the shop files, each with its channels)" })
  .refine((config) => config.shop !== undefined || config.shops !== undefined, { path: ["shop"], message: "the shop's name and url are needed (or `shops`: the shop files, each with its own)" });
export type MainConfig = z.infer<typeof MainConfig>;

/** A shop's key: its output folder (output/<name>/), its path under `serve` (/<name>/feeds/...), `--shop <name>`. */
export const ShopName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lower-case letters, digits and dashes, at most 63");

/**
 * Who may fetch a channel's feed from `pharmafeed serve`: anyone, HTTP Basic
 * (what Google and Microsoft fetchers support), or a secret token in the path
 * (/feeds/<token>/<file>). Secrets are environment references
 * ("${FEED_GOOGLE_PASSWORD}"); `generate` does not need them set, `serve` checks
 * them when it starts (src/serve/check.ts: strength, token alphabet).
 */
export const AccessConfig = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("open") }).strict(),
  z.object({ mode: z.literal("basic"), user: z.string(), password: z.string() }).strict(),
  z.object({ mode: z.literal("token"), token: z.string() }).strict(),
]);
export type AccessConfig = z.infer<typeof AccessConfig>;

export const GateConfig = z
  .object({
    /** Not published when items drop more than this against the live feed. */
    maxDropPercent: z.number().min(0).max(100).default(20),
    /** Not published when more than this share of products is rejected for bad data. */
    maxRejectedPercent: z.number().min(0).max(100).default(25),
    /** A column empty in every row (column formats): a warning in the summary and manifest, or not published. */
    emptyColumns: z.enum(["warn", "refuse"]).default("warn"),
    /** A price that moved more than this against the live feed counts as moved (src/history/diff.ts). */
    maxPriceChangePercent: z.number().min(0).default(50),
    /** Not published when more than this share of the items in both feeds has a moved price (100: off). */
    maxPriceChangedItemsPercent: z.number().min(0).max(100).default(25),
  })
  .strict();

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const ChannelFile = ChannelMapping.extend({
  /** Unique; used in file names, reports and logs. */
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case letters, digits and dashes"),
  preset: z.enum(PRESET_NAMES as [string, ...string[]]),
  /** A custom layout folder (layout.json + templates), relative to this file; replaces the preset's layout. */
  template: z.string().min(1).optional(),
  /** Output file name inside the output directory; default `<name>.<format extension>`. */
  file: z.string().regex(FILE_NAME, "a plain file name").optional(),
  /** Also publish `<file>.gz`. */
  gzip: z.boolean().default(false),
  gate: GateConfig.prefault({}),
  /** Who may fetch this feed from `pharmafeed serve`. */
  access: AccessConfig.default({ mode: "open" }),
  /** Feed header values; default from `shop`. */
  feed: z
    .object({ title: z.string().optional(), link: z.url().optional(), description: z.string().optional() })
    .strict()
    .optional(),
  /** Google channels: the Merchant Center account (read-back of statuses, intraday push); docs/google-merchant.md. */
  merchant: MerchantSettings.optional(),
  /** Where this channel's published files are pushed; replaces the main file's list ([]: none). */
  destinations: Destinations.optional(),
}).strict();
export type ChannelFile = z.infer<typeof ChannelFile>;

/** Keys of a channel file that are not mapping settings. */
export const CHANNEL_ONLY_KEYS = ["name", "preset", "template", "file", "gzip", "gate", "access", "feed", "merchant", "destinations"] as const;
