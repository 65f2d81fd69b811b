/**
 * The service's error body: {"error":{"status","code","message"}}, plus
 * `violations: [{path, message}]` on a 422. Codes follow the service's dotted
 * style (authentication.not_authenticated) where it has one; too_many_requests
 * is the documented code of the 429.
 */
export const API_ERROR = {
  invalidJson: { status: 400, code: "request.invalid_json" },
  notAuthenticated: { status: 401, code: "authentication.not_authenticated" },
  forbidden: { status: 403, code: "authorization.subscription_required" },
  userAgentRequired: { status: 403, code: "request.user_agent_required" },
  notFound: { status: 404, code: "request.not_found" },
  methodNotAllowed: { status: 405, code: "request.method_not_allowed" },
  bodyTooLarge: { status: 413, code: "request.body_too_large" },
  unsupportedMediaType: { status: 415, code: "request.unsupported_media_type" },
  invalid: { status: 422, code: "request.invalid" },
  resultWindow: { status: 422, code: "request.result_window_exceeded" },
  tooManyRequests: { status: 429, code: "too_many_requests" },
  internal: { status: 500, code: "server.internal_error" },
  notImplemented: { status: 501, code: "request.not_implemented" },
} as const;

export type ApiErrorKind = keyof typeof API_ERROR;

export interface Violation {
  /** JSON path into the request body, e.g. `filter.and[1].status`. */
  path: string;
  message: string;
}

export interface JsonReply {
  kind: "json";
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function errorReply(kind: ApiErrorKind, message: string, violations?: Violation[], headers?: Record<string, string>): JsonReply {
  const { status, code } = API_ERROR[kind];
  const error: Record<string, unknown> = { status, code, message };
  if (violations) error.violations = violations;
  return { kind: "json", status, body: { error }, ...(headers ? { headers } : {}) };
}

/** Codes of the injected 5xx faults, by status. */
export function serverErrorReply(status: number): JsonReply {
  const code = status === 503 ? "server.unavailable" : status === 502 ? "server.bad_gateway" : status === 504 ? "server.gateway_timeout" : "server.internal_error";
  return { kind: "json", status, body: { error: { status, code, message: "The service is temporarily unavailable (injected fault)." } } };
}

/** Renders any value for a "got <value>" suffix, short. */
export function got(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
