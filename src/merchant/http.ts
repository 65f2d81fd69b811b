/**
 * One road to the Merchant API: a bearer token from auth.ts, JSON over an undici Pool,
 * and the same retry discipline as the catalogue client (catalogue/http/backoff.ts):
 * a 429 `quota/request_rate_too_high`, a 5xx or a network error waits (Retry-After or
 * exponential backoff with full jitter) and tries again; a daily limit does not (it
 * resets at 12:00 UTC); a 401 renews the token once, then names what to do
 * (developer registration, the key, the account's users).
 */
import { inspect } from "node:util";
import { Pool } from "undici";
import { backoffDelay, parseRetryAfter, sleep } from "../core/retry.js";
import type { RetryPolicy } from "../core/retry.js";
import { PharmafeedError } from "../errors.js";
import { VERSION } from "../version.js";
import type { TokenSource } from "./auth.js";

export const GOOGLE_API_URL = "https://merchantapi.googleapis.com";
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 6, baseMs: 1000, maxMs: 60_000, jitter: "full" };

/** Google's error body: { error: { code, message, status, details: [{ reason }] } }. */
interface GoogleError {
  code?: number;
  message?: string;
  status?: string;
  details?: { reason?: string }[];
}

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

export interface MerchantRetry {
  path: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

function googleError(text: string): GoogleError {
  try {
    const parsed = JSON.parse(text) as { error?: GoogleError };
    return parsed.error ?? {};
  } catch {
    return {};
  }
}

export class MerchantHttp {
  readonly rootUrl: string;
  readonly #pool: Pool;
  readonly #prefix: string;
  /** Requests sent to the API (every attempt, retries included; token grants apart). */
  requests = 0;
  retries = 0;

  constructor(
    rootUrl: string,
    private readonly tokens: TokenSource,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly onRetry: (event: MerchantRetry) => void = () => {},
  ) {
    const url = new URL(rootUrl);
    this.rootUrl = rootUrl;
    this.#prefix = url.pathname.replace(/\/+$/, "");
    this.#pool = new Pool(url.origin, { connections: 4, headersTimeout: 120_000, bodyTimeout: 120_000 });
  }

  async call<T>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, options: CallOptions = {}): Promise<T> {
    const query = Object.entries(options.query ?? {}).filter((e): e is [string, string | number] => e[1] !== undefined);
    const search = query.length > 0 ? `?${new URLSearchParams(query.map(([k, v]): [string, string] => [k, String(v)])).toString()}` : "";
    let failures = 0;
    let renewed = false;
    for (;;) {
      options.signal?.throwIfAborted();
      let status: number;
      let text: string;
      let retryAfter: string | string[] | undefined;
      try {
        const token = await this.tokens.token();
        this.requests++;
        const response = await this.#pool.request({
          method,
          path: `${this.#prefix}/${path}${search}`,
          headers: {
            authorization: `Bearer ${token}`,
            "user-agent": `pharmafeed/${VERSION}`,
            ...(options.body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
          ...(options.signal ? { signal: options.signal } : {}),
        });
        status = response.statusCode;
        retryAfter = response.headers["retry-after"];
        text = await response.body.text();
      } catch (error) {
        if (error instanceof PharmafeedError || options.signal?.aborted) throw error;
        status = 0;
        text = (error as Error).message;
      }
      if (status >= 200 && status < 300) return (text === "" ? {} : JSON.parse(text)) as T;
      const google = googleError(text);
      const reason = `${method} /${path}: ${status === 0 ? `no answer (${text})` : `HTTP ${status}${google.message ? ` ${google.message}` : ""}`}`;
      const reasons = (google.details ?? []).map((d) => d.reason ?? "").join(" ");
      if (status === 401 && !renewed && !/not registered/i.test(google.message ?? "")) {
        // A token revoked or expired early: one new grant, then the answer stands.
        renewed = true;
        this.tokens.invalidate();
        continue;
      }
      if (status === 401 || status === 403) throw new PharmafeedError("MERCHANT_AUTH", authAdvice(status, google.message ?? "", reason), { context: { status } });
      if (status === 429 && /daily/i.test(`${reasons} ${google.message ?? ""}`)) {
        throw new PharmafeedError("MERCHANT_QUOTA", `${reason}; the daily quota resets at 12:00 UTC`, { context: { status, apiCode: reasons } });
      }
      const transient = status === 0 || status === 429 || status >= 500;
      if (!transient || failures >= this.retry.maxRetries) {
        throw new PharmafeedError("MERCHANT_HTTP", failures > 0 ? `${reason} (after ${failures} retries)` : reason, { context: { status, ...(reasons ? { apiCode: reasons } : {}) } });
      }
      const delayMs = (status === 429 ? parseRetryAfter(retryAfter) : undefined) ?? backoffDelay(failures, this.retry);
      failures++;
      this.retries++;
      this.onRetry({ path, attempt: failures, delayMs, reason });
      await sleep(delayMs, options.signal);
    }
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  [inspect.custom](): string {
    return `MerchantHttp { rootUrl: ${JSON.stringify(this.rootUrl)} }`;
  }
}

function authAdvice(status: number, message: string, reason: string): string {
  if (/not registered/i.test(message)) {
    return `${reason}. The Google Cloud project of the service account is not registered with this Merchant Center account: run the one-time developerRegistration.registerGcp step (docs/google-merchant.md, "Set-up")`;
  }
  if (status === 403) return `${reason}. Add the service account's e-mail as a user of the Merchant Center account (standard access).`;
  return `${reason}. The token was refused twice: check the service account key (revoked, deleted) and its project.`;
}
