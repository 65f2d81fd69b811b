/** Google's error envelope, as the Merchant API sends it. */
import type { ServerResponse } from "node:http";

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Writes the answer itself (a streamed page). */
  raw?: (res: ServerResponse) => void;
}

const STATUS: Record<number, string> = { 400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE" };

export function googleError(status: number, message: string, reason?: string, headers?: Record<string, string>): Reply {
  return {
    status,
    body: {
      error: {
        code: status,
        message,
        status: STATUS[status] ?? "UNKNOWN",
        ...(reason ? { details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "merchantapi.googleapis.com" }] } : {}),
      },
    },
    ...(headers ? { headers } : {}),
  };
}

export const ok = (body: unknown): Reply => ({ status: 200, body });

/** Opaque page tokens: the offset, so a token from another list or a made-up one is refused. */
export function pageToken(offset: number, list: string): string {
  return Buffer.from(`${list}:${offset}`).toString("base64url");
}

export function readPageToken(token: string | null, list: string): number | undefined {
  if (token === null || token === "") return 0;
  const [name, offset] = Buffer.from(token, "base64url").toString("utf8").split(":");
  return name === list && /^\d+$/.test(offset ?? "") ? Number(offset) : undefined;
}

/** pageSize: default and ceiling per method; above the ceiling it is coerced, as the reference says. */
export function pageSize(value: string | null, max: number): number | undefined {
  if (value === null) return max;
  if (!/^\d+$/.test(value)) return undefined;
  return Math.min(Math.max(Number(value), 1), max);
}
