/**
 * Per-channel access: open, HTTP Basic, or a token in the path. Secrets are
 * compared in constant time: sha256 digests of both sides have equal length,
 * so timingSafeEqual applies whatever was sent, and neither the length nor the
 * first wrong character shows in the time taken. The caller answers every
 * refusal alike (routes.ts).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { AccessConfig } from "../config/schema.js";

function same(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

export type AccessVerdict = "allowed" | "needs-credentials" | "refused";

/** `token` is the path segment before the file name (/feeds/<token>/<file>), if any. */
export function checkAccess(access: AccessConfig, headers: IncomingHttpHeaders, token: string | undefined): AccessVerdict {
  switch (access.mode) {
    case "open":
      // Only at /feeds/<file>: a token path must not make an open feed look protected.
      return token === undefined ? "allowed" : "refused";
    case "token":
      return token !== undefined && same(token, access.token) ? "allowed" : "refused";
    case "basic": {
      if (token !== undefined) return "refused";
      const header = headers.authorization;
      if (!header || !/^basic /i.test(header)) return "needs-credentials";
      const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon < 0) return "needs-credentials";
      // Both halves compared, always: the time does not tell which one was wrong.
      const userOk = same(decoded.slice(0, colon), access.user);
      const passwordOk = same(decoded.slice(colon + 1), access.password);
      return userOk && passwordOk ? "allowed" : "needs-credentials";
    }
  }
}

/** Basic credentials of the status page. */
export function checkBasic(headers: IncomingHttpHeaders, user: string, password: string): boolean {
  return checkAccess({ mode: "basic", user, password }, headers, undefined) === "allowed";
}
