/**
 * OAuth 2.0 for a service account (the JWT bearer grant, RFC 7523, as Google documents
 * it for HTTP/REST): a JWT signed with the key's private key is exchanged at the key's
 * `token_uri` for an access token of an hour, kept until a minute before it ends.
 *
 * Why not google-auth-library: its 11.x needs Node 22, and 10.x sends every grant to
 * https://oauth2.googleapis.com/token whatever the key's token_uri says, so it cannot be
 * pointed at a local test server. The grant is one signed POST (node:crypto).
 */
import { createSign } from "node:crypto";
import { inspect } from "node:util";
import { request } from "undici";
import { isSilenceTimeout } from "../core/retry.js";
import { PharmafeedError } from "../errors.js";
import { readCapped } from "./body.js";
import type { ServiceAccountKey } from "./key.js";
import { abortedBy, DEFAULT_LIMITS, requestSignal, secondsText } from "./limits.js";

export const CONTENT_SCOPE = "https://www.googleapis.com/auth/content";
const GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** Renewed this long before Google says it ends, so a request never carries a token that dies on the way. */
const MARGIN_MS = 60_000;
/** A token endpoint's answer is a few hundred bytes. */
const MAX_GRANT_BYTES = 64 * 1024;

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The signed assertion of the grant (exported for the fake server's tests). */
export function signAssertion(key: ServiceAccountKey, now: number, scope = CONTENT_SCOPE): string {
  const iat = Math.floor(now / 1000);
  const header = { alg: "RS256", typ: "JWT", ...(key.private_key_id ? { kid: key.private_key_id } : {}) };
  const claims = { iss: key.client_email, scope, aud: key.token_uri, iat, exp: iat + 3600 };
  const unsigned = `${b64(header)}.${b64(claims)}`;
  const signature = createSign("RSA-SHA256").update(unsigned).sign(key.private_key).toString("base64url");
  return `${unsigned}.${signature}`;
}

export class TokenSource {
  readonly clientEmail: string;
  readonly #key: ServiceAccountKey;
  #token: { value: string; until: number } | undefined;
  #pending: Promise<string> | undefined;
  /** Grants asked for (for the figures and the tests). */
  grants = 0;

  constructor(
    key: ServiceAccountKey,
    private readonly now: () => number = Date.now,
    /** A grant has the same timeout as any request: a silent token endpoint once held a run 303 s per grant. */
    private readonly timeoutMs = DEFAULT_LIMITS.requestTimeoutMs,
  ) {
    this.#key = key;
    this.clientEmail = key.client_email;
  }

  /** A valid access token; concurrent callers share one grant (stopped by the first caller's signal). */
  async token(signal?: AbortSignal): Promise<string> {
    if (this.#token && this.#token.until > this.now()) return this.#token.value;
    this.#pending ??= this.#grant(signal).finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  /** Forgets the token (the API answered 401: revoked or expired early). */
  invalidate(): void {
    this.#token = undefined;
  }

  async #grant(caller?: AbortSignal): Promise<string> {
    this.grants++;
    const body = new URLSearchParams({ grant_type: GRANT, assertion: signAssertion(this.#key, this.now()) }).toString();
    let status: number;
    let text: string;
    const signal = requestSignal(this.timeoutMs, caller);
    try {
      const response = await request(this.#key.token_uri, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
        signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      status = response.statusCode;
      text = await readCapped(response.body, response.headers, MAX_GRANT_BYTES, `token endpoint ${this.#key.token_uri}`, status);
    } catch (cause) {
      if (cause instanceof PharmafeedError) throw cause;
      if (caller?.aborted) throw abortedBy(caller, cause);
      const why = signal.aborted || isSilenceTimeout(cause) ? `no answer within ${secondsText(this.timeoutMs)}` : (cause as Error).message;
      throw new PharmafeedError("MERCHANT_HTTP", `token endpoint ${this.#key.token_uri} unreachable: ${why}`, { cause });
    }
    let json: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      // A proxy's page: the status says enough.
    }
    if (status !== 200 || typeof json.access_token !== "string") {
      const why = [json.error, json.error_description].filter((x) => typeof x === "string").join(": ");
      throw new PharmafeedError("MERCHANT_AUTH", `the service account ${this.clientEmail} got no token from ${this.#key.token_uri}: HTTP ${status}${why ? ` ${why}` : ""}`, {
        context: { status },
      });
    }
    const seconds = typeof json.expires_in === "number" ? json.expires_in : 3600;
    this.#token = { value: json.access_token, until: this.now() + seconds * 1000 - MARGIN_MS };
    return json.access_token;
  }

  [inspect.custom](): string {
    return `TokenSource { clientEmail: ${JSON.stringify(this.clientEmail)} }`;
  }

  toJSON(): { clientEmail: string } {
    return { clientEmail: this.clientEmail };
  }
}
