/**
 * Downloading photos: undici over keep-alive connections, with the
 * User-Agent the catalogue service asks image clients for, a size cap, and a
 * retry budget. A 408, 429, 5xx, network error or timeout is tried again
 * after a backoff (Retry-After when the host sends one), at most
 * `maxRetries` times per image and `runRetries` times per run, so a dead
 * image host costs minutes, not the night. Other statuses fail at once.
 *
 * Data can be bad here: the result says why instead of throwing. Only an
 * abort (the run is stopping) throws.
 */
import { Agent, errors, interceptors, request, type Dispatcher } from "undici";
import { backoffDelay, parseRetryAfter, retrying } from "../core/retry.js";
import type { ImageRunOptions } from "./options.js";

export type DownloadResult = { ok: true; value: Buffer } | { ok: false; reason: string };

/** Retries left for the whole run, shared by every download. */
export class RetryPool {
  used = 0;
  constructor(private readonly size: number) {}
  take(): boolean {
    if (this.used >= this.size) return false;
    this.used++;
    return true;
  }
}

/** A download given up: its reason becomes the result. */
class GaveUp extends Error {}

class Transient extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface DownloaderOptions {
  userAgent: string;
  options: ImageRunOptions;
  signal?: AbortSignal;
}

export class Downloader {
  private readonly agent: Agent;
  private readonly dispatcher: Dispatcher;
  readonly pool: RetryPool;

  constructor(private readonly config: DownloaderOptions) {
    const { timeouts, downloads } = config.options;
    this.agent = new Agent({ connections: downloads, connectTimeout: timeouts.connectMs, keepAliveTimeout: 10_000 });
    // CDNs move files; a couple of redirects are normal.
    this.dispatcher = this.agent.compose(interceptors.redirect({ maxRedirections: 3 }));
    this.pool = new RetryPool(config.options.runRetries);
  }

  /** The bytes at `url`, retried within the budgets (core/retry.ts). */
  async download(url: string): Promise<DownloadResult> {
    const { retry } = this.config.options;
    try {
      return await retrying(() => this.once(url), {
        next: (error, failures) => {
          const transient = error instanceof Transient ? error : classify(error);
          if (!transient) throw new GaveUp(`download: ${(error as Error).message}`);
          const attempt = failures - 1;
          if (attempt >= retry.maxRetries || !this.pool.take()) {
            const after = attempt > 0 ? ` (after ${attempt} ${attempt === 1 ? "retry" : "retries"})` : "";
            throw new GaveUp(`download: ${transient.message}${after}`);
          }
          return Math.min(retry.maxMs, transient.retryAfterMs ?? backoffDelay(attempt, retry));
        },
        ...(this.config.signal ? { signal: this.config.signal } : {}),
      });
    } catch (error) {
      // Only an abort (the run is stopping) throws; a photo that cannot be had is a result.
      if (error instanceof GaveUp) return { ok: false, reason: error.message };
      throw error;
    }
  }

  private async once(url: string): Promise<DownloadResult> {
    const { timeouts, maxBytes } = this.config.options;
    const response = await request(url, {
      dispatcher: this.dispatcher,
      method: "GET",
      headers: { "user-agent": this.config.userAgent, accept: "image/jpeg, image/png, image/webp, image/*;q=0.8" },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyIdleMs,
      ...(this.config.signal ? { signal: this.config.signal } : {}),
    });
    const { statusCode, headers, body } = response;
    if (statusCode !== 200) {
      // Always consume or cancel the body, or the connection is lost to the pool.
      await body.dump().catch(() => undefined);
      if (statusCode === 408 || statusCode === 429 || statusCode >= 500) throw new Transient(`HTTP ${statusCode}`, parseRetryAfter(headers["retry-after"]));
      return { ok: false, reason: `download: HTTP ${statusCode}` };
    }
    const declared = Number(headers["content-length"]);
    if (declared > maxBytes) {
      await body.dump().catch(() => undefined);
      return { ok: false, reason: `download: ${declared} bytes, more than the ${maxBytes} allowed` };
    }
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > maxBytes) {
        body.destroy();
        return { ok: false, reason: `download: more than the ${maxBytes} bytes allowed` };
      }
      chunks.push(chunk);
    }
    return { ok: true, value: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length) };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

const TRANSIENT_UNDICI = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

/** Network errors and timeouts are worth another try; an abort is rethrown; anything else (a bad URL, a redirect loop) is not. */
function classify(error: unknown): Transient | undefined {
  const name = (error as { name?: unknown } | null)?.name;
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof errors.RequestAbortedError || name === "AbortError" || code === "ABORT_ERR") throw error;
  if (typeof code !== "string") return undefined;
  // System errors (ECONNRESET, ECONNREFUSED, ETIMEDOUT, EAI_AGAIN...) and undici's network failures.
  if (TRANSIENT_UNDICI.has(code) || /^E[A-Z]+$/.test(code)) return new Transient(`${code}: ${error instanceof Error ? error.message : String(error)}`);
  return undefined;
}
