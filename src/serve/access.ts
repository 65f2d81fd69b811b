/**
 * Per-channel access: open, HTTP Basic, or a token in the path. Secrets are
 * compared in constant time: sha256 digests of both sides have equal length,
 * so timingSafeEqual applies whatever was sent, and neither the length nor the
 * first wrong character shows in the time taken. The caller answers every
 * refusal alike (routes.ts).
 *
 * The work does not depend on the feed either (issue 15, item 8): a wrong password
 * on an existing protected file answered measurably slower than on a missing one
 * (97 us against 83 us). So what was sent is hashed first, once, before any lookup
 * (`presented()`), and every check then makes the same three comparisons of digests,
 * against the channel's secrets (hashed once per config) or, for a name that is not
 * served, against stand-ins.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { AccessConfig } from "../config/schema.js";

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** The digest comparison, through an object so that tests can count the work done. */
export const compare = { equal: (a: Buffer, b: Buffer): boolean => timingSafeEqual(a, b) };

export type AccessVerdict = "allowed" | "needs-credentials" | "refused";

/** What a request presented, hashed: done once per request, whatever it asks for. */
export interface Presented {
  token: Buffer;
  user: Buffer;
  password: Buffer;
  /** The path had a token segment (/feeds/<token>/<file>). */
  hasToken: boolean;
  /** A readable `Authorization: Basic user:password` header. */
  hasBasic: boolean;
}

export function presented(headers: IncomingHttpHeaders, token: string | undefined): Presented {
  let user = "";
  let password = "";
  let hasBasic = false;
  const header = headers.authorization;
  if (header && /^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon >= 0) {
      hasBasic = true;
      user = decoded.slice(0, colon);
      password = decoded.slice(colon + 1);
    }
  }
  return { token: digest(token ?? ""), user: digest(user), password: digest(password), hasToken: token !== undefined, hasBasic };
}

interface Secrets {
  token: Buffer;
  user: Buffer;
  password: Buffer;
}

/** Random stand-ins: what a name that is not served, or an unused field, is compared with. */
const STAND_IN: Secrets = { token: digest(randomBytes(32).toString("hex")), user: digest(randomBytes(32).toString("hex")), password: digest(randomBytes(32).toString("hex")) };
const hashed = new WeakMap<AccessConfig, Secrets>();

function secretsOf(access: AccessConfig): Secrets {
  let secrets = hashed.get(access);
  if (!secrets) {
    secrets = {
      token: access.mode === "token" ? digest(access.token) : STAND_IN.token,
      user: access.mode === "basic" ? digest(access.user) : STAND_IN.user,
      password: access.mode === "basic" ? digest(access.password) : STAND_IN.password,
    };
    hashed.set(access, secrets);
  }
  return secrets;
}

/**
 * The verdict for a channel's access (undefined: the name is not served, always refused).
 * Three digest comparisons every time, all of them, whichever mode and whatever was sent.
 */
export function verdict(access: AccessConfig | undefined, sent: Presented): AccessVerdict {
  const secrets = access ? secretsOf(access) : STAND_IN;
  const tokenOk = compare.equal(sent.token, secrets.token);
  const userOk = compare.equal(sent.user, secrets.user);
  const passwordOk = compare.equal(sent.password, secrets.password);
  if (!access) return sent.hasToken || sent.hasBasic ? "refused" : "needs-credentials";
  switch (access.mode) {
    case "open":
      // Only at /feeds/<file>: a token path must not make an open feed look protected.
      return sent.hasToken ? "refused" : "allowed";
    case "token":
      return sent.hasToken && tokenOk ? "allowed" : "refused";
    case "basic":
      if (sent.hasToken) return "refused";
      if (!sent.hasBasic) return "needs-credentials";
      return userOk && passwordOk ? "allowed" : "needs-credentials";
  }
}

/** `token` is the path segment before the file name (/feeds/<token>/<file>), if any. */
export function checkAccess(access: AccessConfig, headers: IncomingHttpHeaders, token: string | undefined): AccessVerdict {
  return verdict(access, presented(headers, token));
}

/** Basic credentials of the status page. */
export function checkBasic(headers: IncomingHttpHeaders, user: string, password: string): boolean {
  return checkAccess({ mode: "basic", user, password }, headers, undefined) === "allowed";
}
