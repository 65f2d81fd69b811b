/**
 * Why one attempt failed, and whether trying again can help. The retry loop
 * works on these; only when the budget is spent does one become the
 * PharmafeedError the caller sees (status, API error code and message in it).
 */
import { PharmafeedError, type ErrorCode } from "../../errors.js";

export type FailureKind = "rate" | "server" | "auth" | "client" | "network" | "timeout" | "parse" | "closed";

const CODE: Record<FailureKind, ErrorCode> = {
  rate: "RATE_LIMITED",
  server: "SOURCE_HTTP",
  auth: "SOURCE_AUTH",
  client: "SOURCE_HTTP",
  network: "SOURCE_NETWORK",
  timeout: "SOURCE_TIMEOUT",
  parse: "SOURCE_PARSE",
  closed: "SOURCE_NETWORK",
};

export class Failure extends Error {
  readonly kind: FailureKind;
  readonly status: number | undefined;
  readonly apiCode: string | undefined;
  readonly apiMessage: string | undefined;
  readonly violations: unknown[] | undefined;
  readonly retryAfterMs: number | undefined;
  /** The request surely never reached the server (safe to repeat even a create call). */
  readonly notSent: boolean;
  /** The socket's error code (ECONNREFUSED, ...), for the log. */
  readonly errorCode: string | undefined;

  constructor(
    kind: FailureKind,
    detail: string,
    extra: {
      status?: number;
      apiCode?: string;
      apiMessage?: string;
      violations?: unknown[];
      retryAfterMs?: number;
      notSent?: boolean;
      errorCode?: string;
      cause?: unknown;
    } = {},
  ) {
    super(detail, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.kind = kind;
    this.status = extra.status;
    this.apiCode = extra.apiCode;
    this.apiMessage = extra.apiMessage;
    this.violations = extra.violations;
    this.retryAfterMs = extra.retryAfterMs;
    this.notSent = extra.notSent ?? false;
    this.errorCode = extra.errorCode;
  }

  get transient(): boolean {
    return this.kind === "rate" || this.kind === "server" || this.kind === "network" || this.kind === "timeout";
  }

  toError(operation: string, retries: number): PharmafeedError {
    const after = retries > 0 ? ` (after ${retries} ${retries === 1 ? "retry" : "retries"})` : "";
    return new PharmafeedError(CODE[this.kind], `${operation}: ${this.message}${after}`, {
      cause: this.cause ?? this,
      context: {
        ...(this.status === undefined ? {} : { status: this.status }),
        ...(this.apiCode === undefined ? {} : { apiCode: this.apiCode }),
        ...(this.violations === undefined ? {} : { violations: this.violations }),
        retries,
      },
    });
  }
}

const TIMEOUTS = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);
const NOT_SENT = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** Turns whatever undici or a socket threw into a Failure (aborts are rethrown as they are). */
export function classify(error: unknown): Failure {
  if (error instanceof Failure) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  const text = error instanceof Error ? error.message : String(error);
  if (name === "AbortError" || code === "UND_ERR_ABORTED" || code === "ABORT_ERR") throw error;
  const codeText = typeof code === "string" ? code : "";
  if (codeText === "UND_ERR_DESTROYED" || codeText === "UND_ERR_CLOSED") {
    return new Failure("closed", "the client was closed", { cause: error });
  }
  if (TIMEOUTS.has(codeText)) {
    return new Failure("timeout", `timed out (${codeText}: ${text})`, { cause: error, notSent: NOT_SENT.has(codeText), errorCode: codeText });
  }
  return new Failure("network", `network error (${codeText || String(name)}: ${text})`, {
    cause: error,
    notSent: NOT_SENT.has(codeText),
    ...(codeText ? { errorCode: codeText } : {}),
  });
}
