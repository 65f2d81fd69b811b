/**
 * The contract of the local Catalogue API v4 sandbox: what `startSandbox()` takes
 * and returns. The client's tests, the benchmarks and `npm start` all depend on
 * it, so it changes only with them.
 */
import { z } from "zod";

/** Demo credentials. Not secrets: the sandbox prints them at start. */
export const DEMO_KEY = { id: "demo", secret: "demo-secret-not-for-production" } as const;
/** A second demo key whose subscription may not call users/create or organizations/create. */
export const BASIC_KEY = { id: "demo-basic", secret: "demo-basic-secret" } as const;

export const FaultOptions = z
  .object({
    /** Answer `failStatus` (default 503, service error body) to the first K requests. */
    failFirst: z.number().int().min(0).default(0),
    failStatus: z.number().int().min(500).max(599).default(503),
    /** Answer 429 too_many_requests to the first K requests, whatever the rate (a "429 storm"). */
    tooManyFirst: z.number().int().min(0).default(0),
    /**
     * Cut stream connections: the i-th stream response (i = 1..dropTimes) is destroyed
     * after writing i*dropAfterLines lines, so a resuming client still progresses.
     */
    dropAfterLines: z.number().int().min(1).optional(),
    dropTimes: z.number().int().min(1).default(1),
    /** Delay before each stream line. */
    lineDelayMs: z.number().min(0).default(0),
    /** The first stream response pauses `stallMs` after K lines, or until the client closes the connection (for body-timeout tests). */
    stallAfterLines: z.number().int().min(0).optional(),
    stallMs: z.number().min(0).max(2 ** 31 - 1).default(0),
    /** The stream line with this meta.index is sent as broken JSON, on every stream request. */
    corruptLine: z.number().int().min(0).optional(),
    /** Write stream bodies in chunks of this many bytes (1 splits multi-byte characters). */
    chunkBytes: z.number().int().min(1).optional(),
    /** Photo URLs (/media/...) that fail, for tests of the image pipeline. */
    brokenImages: z
      .object({
        /** The 40-character hex names (the file name in the URL) of the images that fail. */
        hexes: z.array(z.string().regex(/^[0-9a-f]{40}$/)).default([]),
        /** A deterministic share of every image URL (picked by its hex) fails too. */
        share: z.number().min(0).max(1).default(0),
        /** 404; 500 on every attempt (a client spends its retries); or 200 with bytes no decoder reads. */
        mode: z.enum(["404", "500", "corrupt"]).default("404"),
      })
      .strict()
      .prefault({}),
    /**
     * Truncate stream bodies (issue 15): the i-th stream response (i = 1..cutTimes) stops after
     * i*cutAfterLines complete lines, in the way `cutShape` says:
     * - "mid-line-end": half of the next line, then a clean end of the chunked body;
     * - "close-delimited": the body has no length nor chunks (it ends when the connection
     *   closes), half of the next line, then a clean close;
     * - "mid-line-reset": half of the next line, then the connection is destroyed;
     * - "short-end": a clean end on a line boundary (fewer lines than meta.total).
     */
    cutAfterLines: z.number().int().min(0).optional(),
    cutTimes: z.number().int().min(1).default(1),
    cutShape: z.enum(["mid-line-end", "close-delimited", "mid-line-reset", "short-end"]).default("mid-line-end"),
    /** The last line of every stream body goes out without its newline (the spec ends each line with one). */
    noFinalNewline: z.boolean().default(false),
    /** meta.total written as the true total plus this (a wrong meta.total), on every stream. */
    totalOffset: z.number().int().default(0),
    /**
     * Every K-th stream line (meta.index K-1, 2K-1, ...) carries the record of the line before it:
     * the same id twice in one stream, and that position's own record never sent.
     */
    repeatIdEvery: z.number().int().min(2).optional(),
  })
  .strict();
export type FaultOptions = z.infer<typeof FaultOptions>;

/** A catalogue that changes over time (generate/changes.ts), deterministically per seed and moment. */
export const ChangeOptions = z
  .object({
    /** Expected changes per product per hour: 0.01 changes 1 % of the catalogue every hour. */
    perHour: z.number().min(0).max(1).default(0.01),
    /** New products per hour. */
    newPerHour: z.number().min(0).default(10),
    /** The catalogue's moment (Unix seconds), fixed until clock.set(); default: the real clock. */
    at: z.number().int().min(0).optional(),
    /** Changes start here (Unix seconds); default: `at`, or the real time at start. */
    since: z.number().int().min(0).optional(),
  })
  .strict();
export type ChangeOptions = z.infer<typeof ChangeOptions>;

export const SandboxOptions = z
  .object({
    host: z.string().default("127.0.0.1"),
    /** 0 picks a free port. */
    port: z.number().int().min(0).max(65535).default(0),
    products: z.number().int().min(0).default(2000),
    seed: z.number().int().default(1),
    keyId: z.string().min(1).default(DEMO_KEY.id),
    keySecret: z.string().min(1).default(DEMO_KEY.secret),
    /** Requests allowed per key per rolling window (the service: 100 per minute). */
    rateLimit: z.number().int().min(1).default(100),
    rateWindowMs: z.number().int().min(1).default(60_000),
    faults: FaultOptions.default(FaultOptions.parse({})),
    /** Products change over time (prices, names, photos, status, deletions, new products). */
    changes: ChangeOptions.optional(),
    /** Log one line per request to stderr. */
    log: z.boolean().default(false),
  })
  .strict();
export type SandboxOptionsInput = z.input<typeof SandboxOptions>;
export type SandboxOptions = z.infer<typeof SandboxOptions>;

export interface SandboxHandle {
  /** Base URL without the /v4 prefix, e.g. http://127.0.0.1:40123 */
  readonly url: string;
  readonly port: number;
  readonly keyId: string;
  readonly keySecret: string;
  /** Requests answered so far, per path (for tests of pacing and retries). */
  readonly stats: { requests: number; byPath: Map<string, number> };
  /** The catalogue's moment (Unix seconds) when it changes over time; set() fixes it (tests). */
  readonly clock: { now(): number; set(at: number): void };
  close(): Promise<void>;
}
