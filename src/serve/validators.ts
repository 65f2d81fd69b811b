/**
 * Conditional and partial requests (RFC 9110): strong ETags, Last-Modified,
 * If-None-Match before If-Modified-Since, one byte range with If-Range, and
 * Accept-Encoding for the gzip twin. Pure functions of the request headers.
 */
import type { IncomingHttpHeaders } from "node:http";

/** Second precision, as HTTP dates have. */
function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** True when the client's copy is current: answer 304. */
export function notModified(headers: IncomingHttpHeaders, etag: string, lastModified: Date): boolean {
  const inm = headers["if-none-match"];
  if (inm !== undefined) {
    // If-None-Match wins over If-Modified-Since, and uses the weak comparison (RFC 9110 13.1.2).
    const tags = inm.split(",").map((t) => t.trim().replace(/^W\//, ""));
    return tags.includes("*") || tags.includes(etag);
  }
  const ims = headers["if-modified-since"];
  if (ims !== undefined) {
    const since = Date.parse(ims);
    return Number.isFinite(since) && seconds(lastModified) <= Math.floor(since / 1000);
  }
  return false;
}

export type RangeResult = { kind: "full" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

/** One `bytes=` range; several ranges, other units or a malformed header get the whole file, as RFC 9110 allows. */
export function byteRange(headers: IncomingHttpHeaders, size: number, etag: string, lastModified: Date): RangeResult {
  const range = headers.range;
  if (range === undefined) return { kind: "full" };
  const ifRange = headers["if-range"];
  if (typeof ifRange === "string") {
    // A strong ETag, or the exact Last-Modified date (RFC 9110 13.1.5); a weak tag never matches.
    const current = ifRange.startsWith('"') ? ifRange === etag : Date.parse(ifRange) === seconds(lastModified) * 1000;
    if (!current) return { kind: "full" };
  }
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!match || (match[1] === "" && match[2] === "")) return { kind: "full" };
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return { kind: "unsatisfiable" };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    if (match[2] !== "" && Number(match[2]) < start) return { kind: "full" }; // invalid: ignored
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end };
}

/** Accept-Encoding allows gzip: an explicit `gzip` entry decides, else `*`; q=0 refuses. */
export function acceptsGzip(headers: IncomingHttpHeaders): boolean {
  const accept = headers["accept-encoding"];
  if (!accept) return false;
  const weights = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [coding = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    weights.set(coding, q === undefined ? 1 : Number(q.slice(2)));
  }
  const weight = weights.get("gzip") ?? weights.get("x-gzip") ?? weights.get("*") ?? 0;
  return weight > 0;
}

/** RFC 9110 IMF-fixdate. */
export function httpDate(date: Date): string {
  return date.toUTCString();
}
