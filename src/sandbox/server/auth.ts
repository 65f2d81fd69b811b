/**
 * HTTP Basic authentication against the two demo keys: the configured main key
 * (full rights) and BASIC_KEY, whose subscription may not call the restricted
 * create endpoints.
 */
import { timingSafeEqual } from "node:crypto";
import { BASIC_KEY } from "../options.js";

export interface ApiKey {
  id: string;
  /** May call users/create and organizations/create. */
  mayCreate: boolean;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function authenticate(header: string | undefined, main: { id: string; secret: string }): ApiKey | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const id = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  if (id === main.id && same(secret, main.secret)) return { id, mayCreate: true };
  if (id === BASIC_KEY.id && same(secret, BASIC_KEY.secret)) return { id, mayCreate: false };
  return undefined;
}
