/**
 * One HTTP attempt against the API: pace (shared limiter), send a JSON POST with
 * Basic auth and the User-Agent over a keep-alive undici Pool, and hand back a
 * 2xx response. Anything else is consumed and thrown as a classified Failure.
 * The Authorization value lives in a private field: never printed, never in errors.
 */
import { inspect } from "node:util";
import { Pool, type Dispatcher } from "undici";
import { VERSION } from "../../version.js";
import type { SourceOptions } from "../options.js";
import { ErrorBody } from "../schemas/envelopes.js";
import { parseRetryAfter } from "../../core/retry.js";
import { classify, Failure } from "./failure.js";
import { limiterFor, type RollingWindowLimiter } from "./limiter.js";

export interface Sent {
  statusCode: number;
  headers: Dispatcher.ResponseData["headers"];
  body: Dispatcher.ResponseData["body"];
}

const ERROR_BODY_CAP = 64 * 1024;

/**
 * Cancels a response body we will not read further (undici: always consume or
 * cancel). undici fails a destroyed unfinished body with an abort error: it is
 * expected here, so it gets a listener instead of becoming an unhandled 'error'.
 */
export function release(body: Dispatcher.ResponseData["body"]): void {
  if (body.destroyed) return;
  body.on("error", () => undefined);
  body.destroy();
}

async function readCapped(body: Dispatcher.ResponseData["body"]): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= ERROR_BODY_CAP) break;
    }
  } catch {
    // An error body cut short still tells the status; keep what arrived.
  } finally {
    release(body);
  }
  return Buffer.concat(chunks).toString("utf8", 0, Math.min(size, ERROR_BODY_CAP));
}

function failureFor(status: number, text: string, retryAfter: string | string[] | undefined): Failure {
  let apiCode: string | undefined;
  let apiMessage: string | undefined;
  let violations: unknown[] | undefined;
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    if (parsed.success) {
      apiCode = parsed.data.error.code;
      apiMessage = parsed.data.error.message ?? undefined;
      violations = parsed.data.error.violations ?? undefined;
    }
  } catch {
    // Not JSON (a proxy page, say): the status alone has to do.
  }
  const detail = `HTTP ${status}${apiCode ? ` ${apiCode}` : ""}${apiMessage ? `: ${apiMessage}` : ""}`;
  const kind = status === 429 ? "rate" : status === 401 || status === 403 ? "auth" : status >= 500 ? "server" : "client";
  return new Failure(kind, detail, {
    status,
    ...(apiCode === undefined ? {} : { apiCode }),
    ...(apiMessage === undefined ? {} : { apiMessage }),
    ...(violations === undefined ? {} : { violations }),
    ...(status === 429 ? { retryAfterMs: parseRetryAfter(retryAfter) } : {}),
  });
}

export class Transport {
  readonly baseUrl: string;
  readonly keyId: string;
  readonly userAgent: string;
  readonly limiter: RollingWindowLimiter;
  readonly #authorization: string;
  readonly #prefix: string;
  readonly #pool: Pool;
  readonly #timeouts: SourceOptions["timeouts"];
  /** Requests sent (attempts, including retries and resumes). */
  requests = 0;

  constructor(options: SourceOptions) {
    const url = new URL(options.baseUrl);
    this.baseUrl = options.baseUrl;
    this.keyId = options.keyId;
    this.userAgent = `pharmafeed/${VERSION} (${options.contact})`;
    this.#authorization = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret.reveal()}`).toString("base64")}`;
    this.#prefix = url.pathname.replace(/\/+$/, "");
    this.#timeouts = options.timeouts;
    this.#pool = new Pool(url.origin, {
      connect: { timeout: options.timeouts.connectMs },
      headersTimeout: options.timeouts.headersMs,
      bodyTimeout: options.timeouts.bodyIdleMs,
      connections: 4,
    });
    this.limiter = limiterFor(`${options.baseUrl}|${options.keyId}`, options.rateLimit, options.rateWindowMs);
  }

  /** "POST /v4/products/stream" (for messages). */
  describe(endpoint: string): string {
    return `POST ${this.#prefix}/v4/${endpoint}`;
  }

  /** One paced attempt; resolves with a 2xx response whose body the caller must consume or destroy. */
  async send(endpoint: string, body: unknown, signal?: AbortSignal): Promise<Sent> {
    const permit = await this.limiter.acquire(signal);
    let response: Dispatcher.ResponseData;
    try {
      this.requests++;
      response = await this.#pool.request({
        method: "POST",
        path: `${this.#prefix}/v4/${endpoint}`,
        headers: {
          authorization: this.#authorization,
          "user-agent": this.userAgent,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyIdleMs,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw classify(error);
    } finally {
      permit.done();
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return response;
    const text = await readCapped(response.body);
    throw failureFor(response.statusCode, text, response.headers["retry-after"]);
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  [inspect.custom](): string {
    return `Transport { baseUrl: ${JSON.stringify(this.baseUrl)}, keyId: ${JSON.stringify(this.keyId)} }`;
  }
}
