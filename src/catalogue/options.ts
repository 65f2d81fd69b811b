/**
 * Options of the Catalogue API client (`SourceOptions`), and how config and the
 * environment combine into them. The lead's config layer embeds the schema as is.
 *
 * The key secret becomes a `Secret` at parse time, so a parsed options object can
 * be logged, inspected or serialised without leaking it.
 */
import { z } from "zod";
import { milliseconds } from "../core/duration.js";
import { PharmafeedError } from "../errors.js";
import { Secret } from "./secret.js";

export const ENV = {
  baseUrl: "CATALOGUE_API_BASE_URL",
  keyId: "CATALOGUE_API_KEY_ID",
  keySecret: "CATALOGUE_API_KEY_SECRET",
  contact: "CATALOGUE_API_CONTACT",
} as const;

/** Base URL of the service, without `/v4` (the client appends `/v4/<resource>/...`). */
const BaseUrl = z.string().transform((raw, ctx) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    ctx.addIssue({ code: "custom", message: `expected an absolute http(s) URL, got ${JSON.stringify(raw)}` });
    return z.NEVER;
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    ctx.addIssue({ code: "custom", message: `expected an http(s) URL, got ${url.protocol}` });
  } else if (/\/v4$/i.test(path)) {
    ctx.addIssue({ code: "custom", message: "give the base URL without /v4 (the client appends /v4/...)" });
  } else if (url.username || url.password || url.search || url.hash) {
    ctx.addIssue({ code: "custom", message: "the base URL takes no credentials, query or fragment" });
  }
  return `${url.origin}${path}`;
});

export const Timeouts = z.strictObject({
  /** TCP/TLS connect timeout. */
  connectMs: milliseconds(1).default(10_000),
  /** Time from sending a request to receiving the response headers. */
  headersMs: milliseconds(1).default(60_000),
  /** Longest silence between two chunks of a response body (a stalled stream is resumed). */
  bodyIdleMs: milliseconds(1).default(60_000),
});

export const RetryPolicy = z.strictObject({
  /**
   * Retries of one request after a 429, a 5xx, a network error or a timeout. For a
   * stream the count restarts whenever a retried attempt delivers new lines.
   */
  maxRetries: z.number().int().min(0).default(6),
  /** First backoff ceiling; it doubles per retry up to `maxMs`. */
  baseMs: milliseconds(0).default(1_000),
  maxMs: milliseconds(0).default(60_000),
  /** "full": wait a random time in [0, ceiling] (AWS "full jitter"); "none": wait the ceiling. */
  jitter: z.enum(["full", "none"]).default("full"),
});

export const SourceOptions = z.strictObject({
  baseUrl: BaseUrl,
  /** API key identifier: the Basic auth user name. */
  keyId: z.string().min(1),
  /** API key secret: the Basic auth password. Never printed. */
  keySecret: z.union([z.instanceof(Secret), z.string().min(1).transform((value) => new Secret(value))]),
  /** Who runs this client, for `User-Agent: pharmafeed/<version> (<contact>)` (e-mail or URL). */
  contact: z.string().trim().min(1),
  timeouts: Timeouts.prefault({}),
  /** Requests per rolling window per key, shared by every client of the process. */
  rateLimit: z.number().int().min(1).default(100),
  rateWindowMs: milliseconds(1).default(60_000),
  retry: RetryPolicy.prefault({}),
});
export type SourceOptions = z.infer<typeof SourceOptions>;
export type SourceOptionsInput = z.input<typeof SourceOptions>;

/** Parses options or throws `CONFIG_INVALID` naming every bad path (never a value). */
export function parseSourceOptions(input: unknown): SourceOptions {
  const parsed = SourceOptions.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const env = ENV[path as keyof typeof ENV];
    const given = issue.path.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key], input);
    return `${path || "(root)"}${env ? ` (or ${env})` : ""}: ${given === undefined ? "required" : issue.message}`;
  });
  throw new PharmafeedError("CONFIG_INVALID", `invalid catalogue source options:\n  ${lines.join("\n  ")}`, {
    context: { path: parsed.error.issues[0]?.path.map(String).join(".") },
  });
}

/**
 * Config values overridden by the environment: CATALOGUE_API_BASE_URL,
 * CATALOGUE_API_KEY_ID, CATALOGUE_API_KEY_SECRET and CATALOGUE_API_CONTACT win
 * over the config (empty variables count as unset).
 */
export function resolveSourceOptions(
  config: Partial<SourceOptionsInput> = {},
  env: Record<string, string | undefined> = process.env,
): SourceOptions {
  const merged: Record<string, unknown> = { ...config };
  for (const [field, name] of Object.entries(ENV)) {
    const value = env[name];
    if (value !== undefined && value.trim() !== "") merged[field] = value.trim();
  }
  return parseSourceOptions(merged);
}
