/** The pure parts: request targets, conditional requests, ranges, Accept-Encoding, access checks. */
import { describe, expect, it } from "vitest";
import { checkAccess } from "../../src/serve/access.js";
import { loggablePath, parseTarget } from "../../src/serve/paths.js";
import { acceptsGzip, byteRange, notModified } from "../../src/serve/validators.js";

const ETAG = '"abc"';
const LM = new Date("2026-11-20T10:00:00.500Z");
const TOKEN = "t".repeat(30);

describe("parseTarget", () => {
  it("accepts the four shapes and decodes a plain name", () => {
    expect(parseTarget("/feeds/google-fr.xml")).toEqual({ kind: "feed", name: "google-fr.xml" });
    expect(parseTarget("/feeds/google%2Dfr.xml?utm=x")).toEqual({ kind: "feed", name: "google-fr.xml" });
    expect(parseTarget(`/feeds/${TOKEN}/idealo.csv`)).toEqual({ kind: "feed", name: "idealo.csv", token: TOKEN });
    expect(parseTarget(`/images/${"a1".repeat(16)}.webp`)).toEqual({ kind: "image", name: `${"a1".repeat(16)}.webp` });
    expect(parseTarget("/healthz")).toEqual({ kind: "healthz" });
    expect(parseTarget("/")).toEqual({ kind: "status" });
  });
  it("refuses short tokens, encoded tokens and names with '..'", () => {
    expect(parseTarget("/feeds/short/idealo.csv").kind).toBe("none");
    expect(parseTarget(`/feeds/${TOKEN}%41/idealo.csv`).kind).toBe("none");
    expect(parseTarget("/feeds/a..b.xml").kind).toBe("none");
  });
  it("keeps tokens out of logged paths", () => {
    const url = `/feeds/${TOKEN}/idealo.csv`;
    expect(loggablePath(url, parseTarget(url))).toBe("/feeds/<token>/idealo.csv");
    const refused = `/feeds/${TOKEN}/../x`;
    expect(loggablePath(refused, parseTarget(refused))).not.toContain(TOKEN);
  });
});

describe("notModified", () => {
  it("If-None-Match: weak comparison, lists, *", () => {
    expect(notModified({ "if-none-match": ETAG }, ETAG, LM)).toBe(true);
    expect(notModified({ "if-none-match": `"x", W/${ETAG}` }, ETAG, LM)).toBe(true);
    expect(notModified({ "if-none-match": "*" }, ETAG, LM)).toBe(true);
    expect(notModified({ "if-none-match": '"abcd"' }, ETAG, LM)).toBe(false);
  });
  it("If-Modified-Since at second precision; unparseable dates ignored", () => {
    expect(notModified({ "if-modified-since": "Fri, 20 Nov 2026 10:00:00 GMT" }, ETAG, LM)).toBe(true);
    expect(notModified({ "if-modified-since": "Fri, 20 Nov 2026 09:59:59 GMT" }, ETAG, LM)).toBe(false);
    expect(notModified({ "if-modified-since": "yesterday" }, ETAG, LM)).toBe(false);
  });
});

describe("byteRange", () => {
  const r = (range: string, extra: Record<string, string> = {}) => byteRange({ range, ...extra }, 1000, ETAG, LM);
  it("single ranges, suffixes, open ends, clamping", () => {
    expect(r("bytes=0-0")).toEqual({ kind: "partial", start: 0, end: 0 });
    expect(r("bytes=990-2000")).toEqual({ kind: "partial", start: 990, end: 999 });
    expect(r("bytes=-10")).toEqual({ kind: "partial", start: 990, end: 999 });
    expect(r("bytes=-5000")).toEqual({ kind: "partial", start: 0, end: 999 });
    expect(r("bytes=500-")).toEqual({ kind: "partial", start: 500, end: 999 });
  });
  it("unsatisfiable and ignored ranges", () => {
    expect(r("bytes=1000-")).toEqual({ kind: "unsatisfiable" });
    expect(r("bytes=-0")).toEqual({ kind: "unsatisfiable" });
    expect(r("bytes=5-2")).toEqual({ kind: "full" });
    expect(r("bytes=0-1,5-6")).toEqual({ kind: "full" });
    expect(r("items=0-1")).toEqual({ kind: "full" });
    expect(byteRange({ range: "bytes=0-0" }, 0, ETAG, LM)).toEqual({ kind: "unsatisfiable" });
  });
  it("If-Range: strong ETag or exact date only", () => {
    expect(r("bytes=0-1", { "if-range": ETAG }).kind).toBe("partial");
    expect(r("bytes=0-1", { "if-range": `W/${ETAG}` }).kind).toBe("full");
    expect(r("bytes=0-1", { "if-range": "Fri, 20 Nov 2026 10:00:00 GMT" }).kind).toBe("partial");
    expect(r("bytes=0-1", { "if-range": "Fri, 20 Nov 2026 10:00:01 GMT" }).kind).toBe("full");
  });
});

describe("acceptsGzip", () => {
  it.each([
    ["gzip", true],
    ["deflate, gzip;q=0.5", true],
    ["GZIP", true],
    ["*", true],
    ["gzip;q=0", false],
    ["*, gzip;q=0", false],
    ["*;q=0", false],
    ["br", false],
    ["", false],
  ])("%s -> %s", (header, expected) => {
    expect(acceptsGzip({ "accept-encoding": header })).toBe(expected);
  });
});

describe("checkAccess", () => {
  const auth = (s: string) => ({ authorization: `Basic ${Buffer.from(s).toString("base64")}` });
  const basic = { mode: "basic" as const, user: "u", password: "p:w" };
  it("Basic: a password may contain ':'; the scheme is case-insensitive", () => {
    expect(checkAccess(basic, auth("u:p:w"), undefined)).toBe("allowed");
    expect(checkAccess(basic, { authorization: `basic ${Buffer.from("u:p:w").toString("base64")}` }, undefined)).toBe("allowed");
    expect(checkAccess(basic, auth("u:p"), undefined)).toBe("needs-credentials");
    expect(checkAccess(basic, auth("u:p:w"), TOKEN)).toBe("refused");
  });
  it("token: equal strings only", () => {
    expect(checkAccess({ mode: "token", token: TOKEN }, {}, TOKEN)).toBe("allowed");
    expect(checkAccess({ mode: "token", token: TOKEN }, {}, `${TOKEN}x`)).toBe("refused");
    expect(checkAccess({ mode: "token", token: TOKEN }, {}, undefined)).toBe("refused");
  });
});
