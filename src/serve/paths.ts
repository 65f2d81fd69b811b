/**
 * Request targets to the names `serve` may answer. Nothing here touches the
 * disk: a feed is then looked up by name in the manifest, an image must match
 * the image store's naming (hex digest + extension). Anything odd is refused
 * before any lookup: dot segments, encoded slashes or backslashes, NUL,
 * double encoding (%25), a leading dot (temporaries), non-ASCII, absolute-form
 * targets, overlong paths. safe-open.ts checks the real path again (defence in depth).
 */
import type { AccessConfig } from "../config/schema.js";
import { TOKEN_PATTERN } from "./check.js";

export type Target =
  | { kind: "feed"; name: string; token?: string }
  | { kind: "image"; name: string }
  | { kind: "healthz" }
  | { kind: "monitor" }
  | { kind: "status" }
  | { kind: "status-script" }
  | { kind: "status-report"; name: string }
  | { kind: "status-changes"; channel: string }
  | { kind: "none" };

/** A plain file name: ASCII letters, digits, dot, dash, underscore; no leading dot; no "..". */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;
/** What src/images/store.ts names its files: a sha256 prefix and the format's extension. */
const IMAGE_NAME = /^[0-9a-f]{16,64}\.(?:jpg|png|webp)$/;
const MAX_TARGET = 2048;

function decodeName(segment: string): string | undefined {
  // %25 would let a second decoding step (a proxy, a framework) produce %2e%2e or %2f.
  if (/%25/i.test(segment)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return SAFE_NAME.test(decoded) && !decoded.includes("..") ? decoded : undefined;
}

export function parseTarget(rawUrl: string | undefined): Target {
  const none = { kind: "none" } as const;
  const url = rawUrl ?? "";
  // Origin-form only ("/..."): absolute-form and authority-form targets are refused.
  if (!url.startsWith("/") || url.length > MAX_TARGET || /[\\\0]/.test(url)) return none;
  const queryAt = url.indexOf("?");
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (path === "/") return { kind: "status" };
  if (path === "/healthz") return { kind: "healthz" };
  if (path === "/monitor") return { kind: "monitor" };
  if (path === "/status.js") return { kind: "status-script" };
  const [, area, first, second, ...rest] = path.split("/");
  if (rest.length > 0 || first === undefined) return none;
  if (area === "images" && second === undefined) {
    const name = decodeName(first);
    return name !== undefined && IMAGE_NAME.test(name) ? { kind: "image", name } : none;
  }
  if (area === "status" && first === "reports" && second !== undefined) {
    // reports/_offers.csv starts with "_" (no channel name can), the channel reports with a letter or digit.
    const name = second === "_offers.csv" ? second : decodeName(second);
    return name !== undefined && name.endsWith(".csv") ? { kind: "status-report", name } : none;
  }
  if (area === "status" && first === "changes" && second !== undefined) {
    const channel = decodeName(second);
    return channel !== undefined ? { kind: "status-changes", channel } : none;
  }
  if (area !== "feeds") return none;
  if (second === undefined) {
    const name = decodeName(first);
    return name !== undefined ? { kind: "feed", name } : none;
  }
  // The token is compared as sent: its alphabet needs no encoding, so none is accepted.
  const name = decodeName(second);
  return name !== undefined && TOKEN_PATTERN.test(first) ? { kind: "feed", name, token: first } : none;
}

/**
 * Replaces every channel token in a text by `<token>`, as sent or percent-encoded (a refused
 * request may carry one anywhere: `/feeds/<token>` without a file, another folder, the query,
 * `%41`-style escapes, the User-Agent).
 */
export function tokenRedactor(tokens: readonly string[]): (text: string) => string {
  const secrets = tokens.filter((t) => t.length > 0);
  return (text) => {
    let out = text;
    for (const token of secrets) if (out.includes(token)) out = out.split(token).join("<token>");
    if (out.includes("%")) {
      // Byte by byte, so that a malformed escape elsewhere does not hide an escaped token.
      const decoded = out.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      // Logged decoded only when an escaped token was in it.
      if (secrets.some((t) => decoded.includes(t))) {
        out = decoded;
        for (const token of secrets) out = out.split(token).join("<token>");
      }
    }
    return out;
  };
}

/** The path as logged: a token in it is a secret and never reaches a log line. */
export function loggablePath(rawUrl: string | undefined, target: Target, redact: (text: string) => string = (t) => t): string {
  // Redacted before it is cut, so that a cut never leaves half a token.
  let url = redact(rawUrl ?? "");
  if (target.kind === "feed" && target.token !== undefined) url = url.replace(target.token, "<token>");
  // A refused path may still hold a token-like segment (another channel's, a guess): drop any such segment.
  return url.replace(/\/feeds\/[A-Za-z0-9_-]{24,}(?=\/|$|\?)/g, "/feeds/<token>").slice(0, 300);
}

/**
 * Every channel token `serve` has known since it started, as one redactor: tokens of channels a
 * reload adds join it; those of removed channels stay (they are still secrets). Shared by every
 * shop of a many-shop server, so that one shop's token sent to another's path is never logged.
 */
export class TokenList {
  private readonly tokens = new Set<string>();
  private redactor = tokenRedactor([]);

  add(channels: readonly { access: AccessConfig }[]): void {
    const before = this.tokens.size;
    for (const c of channels) if (c.access.mode === "token") this.tokens.add(c.access.token);
    if (this.tokens.size !== before) this.redactor = tokenRedactor([...this.tokens]);
  }

  readonly redact = (text: string): string => this.redactor(text);
}
