/**
 * Run-wide settings of the image pipeline (one per generate run, shared by
 * every channel that processes images). Channel settings (size, format, ...)
 * are in ./settings.ts; these are about how hard to work and how long to wait.
 */
import { availableParallelism } from "node:os";
import { z } from "zod";
import { milliseconds } from "../core/duration.js";

export const ImageRunOptions = z
  .object({
    /** Downloads at once, across channels. Image hosts are CDNs; eight keeps a 2-core box busy without hammering them. */
    downloads: z.number().int().min(1).default(8),
    /**
     * sharp pipelines at once. On glibc Linux sharp runs each pipeline on one libvips thread
     * (sharp.concurrency() is 1 there, against memory fragmentation), so it takes one per core,
     * plus one to cover the time a pipeline spends in JavaScript, to keep every core busy.
     */
    conversions: z.number().int().min(1).default(availableParallelism() + 1),
    /** Rows of a processing channel waiting for their images; when full the stream waits (backpressure). */
    pendingRows: z.number().int().min(1).default(64),
    retry: z
      .object({
        /** Retries of one image after a 408, 429, 5xx, a network error or a timeout. */
        maxRetries: z.number().int().min(0).default(2),
        /** First backoff ceiling; doubles per retry up to maxMs. Retry-After wins (capped at maxMs). */
        baseMs: milliseconds(0).default(500),
        maxMs: milliseconds(0).default(5_000),
        jitter: z.enum(["full", "none"]).default("full"),
      })
      .strict()
      .prefault({}),
    /** Retries across the whole run: once spent, a failing image fails at once, so a dead image host cannot stretch the night. */
    runRetries: z.number().int().min(0).default(200),
    timeouts: z
      .object({
        connectMs: milliseconds(1).default(10_000),
        headersMs: milliseconds(1).default(15_000),
        bodyIdleMs: milliseconds(1).default(30_000),
      })
      .strict()
      .prefault({}),
    /** Larger downloads are refused (a photo is well under 5 MB). */
    maxBytes: z.number().int().min(1).default(25 * 1024 * 1024),
    /** Larger images are refused before decoding (decompression bombs). */
    maxPixels: z.number().int().min(1).default(50_000_000),
    /** Cache entries no run used for this many days are dropped and their files deleted. */
    retainDays: z.number().min(0).default(7),
  })
  .strict();
export type ImageRunOptions = z.output<typeof ImageRunOptions>;
export type ImageRunOptionsInput = z.input<typeof ImageRunOptions>;
