/**
 * One road to the Merchant API: a bearer token from auth.ts, JSON over an undici Pool,
 * and the same retry loop as the catalogue client (core/retry.ts `retrying`):
 * a 429 `quota/request_rate_too_high`, a 5xx or a network error waits (Retry-After or
 * exponential backoff with full jitter) and tries again; a daily limit does not (it
 * resets at 12:00 UTC); a 401 renews the token once, then names what to do
 * (developer registration, the key, the account's users). Every request is bounded
 * (limits.ts): a timeout and the run's signal, a byte cap on the reply, a Retry-After
 * longer than a run waits ends the work for this run.
 */
import { inspect } from "node:util";
import { Pool } from "undici";
import { backoffDelay, isSilenceTimeout, parseRetryAfter, retrying } from "../core/retry.js";
import type { RetryPolicy } from "../core/retry.js";
import { PharmafeedError } from "../errors.js";
import { VERSION } from "../version.js";
import type { TokenSource } from "./auth.js";
import { readCapped } from "./body.js";
import { abortedBy, DEFAULT_LIMITS, type MerchantLimits, requestSignal, secondsText } from "./limits.js";

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

/** Google's words on one line, never longer than a line should be (a proxy's page, a stack). */
export function oneLine(text: string, max = 1000): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

function parseReply<T>(text: string, what: string): T {
  if (text === "") return {} as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new PharmafeedError("MERCHANT_HTTP", `${what}: the reply is not JSON (${oneLine(text, 80) || "empty"})`);
  }
}

function googleError(text: string): GoogleError {
  try {
    const parsed = JSON.parse(text) as { error?: GoogleError };
    return parsed.error ?? {};
  } catch {
    return {};
  }
}

/** A reply that is not a success (status 0: none came), for `call` to judge: retry, renew the token, or stop. */
class Unanswered {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly retryAfter: string | string[] | undefined,
    /** The request's own timeout ran out (a silent server). */
    readonly silent: boolean,
  ) {}
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
    readonly limits: MerchantLimits = DEFAULT_LIMITS,
  ) {
    const url = new URL(rootUrl);
    this.rootUrl = rootUrl;
    this.#prefix = url.pathname.replace(/\/+$/, "");
    this.#pool = new Pool(url.origin, { connections: 4, headersTimeout: limits.requestTimeoutMs, bodyTimeout: limits.requestTimeoutMs });
  }

  async call<T>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, options: CallOptions = {}): Promise<T> {
    const query = Object.entries(options.query ?? {}).filter((e): e is [string, string | number] => e[1] !== undefined);
    const search = query.length > 0 ? `?${new URLSearchParams(query.map(([k, v]): [string, string] => [k, String(v)])).toString()}` : "";
    const what = `${method} /${path}`;
    let retried = 0;
    let silences = 0;
    let renewed = false;
    return retrying(() => this.once<T>(method, `${this.#prefix}/${path}${search}`, what, options), {
      ...(options.signal ? { signal: options.signal } : {}),
      next: (error) => {
        if (!(error instanceof Unanswered)) throw error;
        const { status, text } = error;
        if (error.silent) silences++;
        const google = googleError(text);
        const reason = `${what}: ${status === 0 ? (text.startsWith("no answer") ? text : `no answer (${oneLine(text, 300)})`) : `HTTP ${status}${google.message ? ` ${oneLine(google.message, 500)}` : ""}`}`;
        const reasons = (google.details ?? []).map((d) => d.reason ?? "").join(" ");
        if (status === 401 && !renewed && !/not registered/i.test(google.message ?? "")) {
          // A token revoked or expired early: one new grant at once, then the answer stands.
          renewed = true;
          this.tokens.invalidate();
          return 0;
        }
        if (status === 401 || status === 403) throw new PharmafeedError("MERCHANT_AUTH", authAdvice(status, google.message ?? "", reason), { context: { status } });
        if (status === 429 && /daily/i.test(`${reasons} ${google.message ?? ""}`)) {
          throw new PharmafeedError("MERCHANT_QUOTA", `${reason}; the daily quota resets at 12:00 UTC`, { context: { status, apiCode: reasons } });
        }
        const transient = status === 0 || status === 429 || status >= 500;
        // A server silent twice in a row is not waited on a third time: six silences once held a run for 15 minutes.
        if (!transient || retried >= this.retry.maxRetries || silences >= 2) {
          throw new PharmafeedError("MERCHANT_HTTP", retried > 0 ? `${reason} (after ${retried} retries)` : reason, { context: { status, ...(reasons ? { apiCode: reasons } : {}) } });
        }
        const asked = status === 429 || status === 503 ? parseRetryAfter(error.retryAfter) : undefined;
        if (asked !== undefined && asked > this.limits.maxRetryAfterMs) {
          // Waiting an hour would hold the run (and once held the output lock) for that hour.
          throw new PharmafeedError(status === 429 ? "MERCHANT_QUOTA" : "MERCHANT_HTTP", `${reason}; Google asks to wait ${secondsText(asked)} (Retry-After), more than the ${secondsText(this.limits.maxRetryAfterMs)} a run waits: given up until the next run`, {
            context: { status, retryAfterMs: asked },
          });
        }
        const delayMs = asked ?? backoffDelay(retried, this.retry);
        retried++;
        this.retries++;
        this.onRetry({ path, attempt: retried, delayMs, reason });
        return delayMs;
      },
    });
  }

  /** One request: the parsed reply of a 2xx, or an Unanswered for `call`'s judgement. */
  private async once<T>(method: string, path: string, what: string, options: CallOptions): Promise<T> {
    options.signal?.throwIfAborted();
    let signal: AbortSignal | undefined;
    try {
      const token = await this.tokens.token(options.signal);
      this.requests++;
      signal = requestSignal(this.limits.requestTimeoutMs, options.signal);
      const response = await this.#pool.request({
        method,
        path,
        headers: {
          authorization: `Bearer ${token}`,
          "user-agent": `pharmafeed/${VERSION}`,
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        signal,
      });
      const status = response.statusCode;
      const text = await readCapped(response.body, response.headers, this.limits.maxReplyBytes, what, status);
      if (status >= 200 && status < 300) return parseReply<T>(text, what);
      throw new Unanswered(status, text, response.headers["retry-after"], false);
    } catch (error) {
      if (error instanceof PharmafeedError || error instanceof Unanswered) throw error;
      if (options.signal?.aborted) throw abortedBy(options.signal, error);
      // The request's own timeout (a silent server): a network failure like any other, retried within the run's cap.
      const silent = signal?.aborted === true || isSilenceTimeout(error);
      throw new Unanswered(0, silent ? `no answer within ${secondsText(this.limits.requestTimeoutMs)}` : (error as Error).message, undefined, silent);
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
    return `${reason}. The Google Cloud project of the service account is not registered with this Merchant Center account: run \`pharmafeed merchant register --developer-email <you>\` once (developerRegistration.registerGcp; docs/google-merchant.md, "Set-up")`;
  }
  if (status === 403) return `${reason}. Add the service account's e-mail as a user of the Merchant Center account (Admin access: the developer registration needs it).`;
  return `${reason}. The token was refused twice: check the service account key (revoked, deleted) and its project.`;
}
