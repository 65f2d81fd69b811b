/**
 * Googlebot verified as Google documents it (reverse DNS into googlebot.com, google.com or
 * googleusercontent.com, then forward DNS back to the same address), with a DNS stub; and
 * a spoofed Googlebot labelled "unverified" on the status page of a real server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BotVerifier, type Resolver } from "../../src/serve/bot-verify.js";
import { MARKETPLACES } from "../../src/serve/bots.js";
import { basic, fetchRaw, makeFixture, SECRETS, serve, type Fixture } from "./helpers.js";

const google = MARKETPLACES.find((m) => m.id === "google")!;
const meta = MARKETPLACES.find((m) => m.id === "meta")!;

/** A stub DNS: PTR and A records as given; counts the questions asked. */
function dns(ptr: Record<string, string[]>, a: Record<string, string[]>): Resolver & { asked: number } {
  const stub = {
    asked: 0,
    reverse: async (ip: string) => {
      stub.asked++;
      if (!(ip in ptr)) throw Object.assign(new Error(`getHostByAddr ENOTFOUND ${ip}`), { code: "ENOTFOUND" });
      return ptr[ip]!;
    },
    forward: async (host: string) => {
      stub.asked++;
      return a[host] ?? [];
    },
  };
  return stub;
}

describe("BotVerifier", () => {
  const resolver = dns(
    {
      "66.249.66.1": ["crawl-66-249-66-1.googlebot.com"],
      "66.249.90.77": ["rate-limited-proxy-66-249-90-77.google.com."],
      "34.1.2.3": ["34-1-2-3.googleusercontent.com"],
      "203.0.113.5": ["crawl-66-249-66-1.googlebot.com.evil.example"],
      "203.0.113.6": ["crawl-203-0-113-6.googlebot.com"],
      "203.0.113.7": ["googlebot.com"],
    },
    {
      "crawl-66-249-66-1.googlebot.com": ["66.249.66.1"],
      "rate-limited-proxy-66-249-90-77.google.com": ["66.249.90.77"],
      "34-1-2-3.googleusercontent.com": ["34.1.2.3"],
      "crawl-66-249-66-1.googlebot.com.evil.example": ["203.0.113.5"],
      // A PTR the attacker controls, pointing into googlebot.com: the forward lookup does not come back.
      "crawl-203-0-113-6.googlebot.com": ["66.249.66.9"],
      "googlebot.com": ["203.0.113.7"],
    },
  );
  const verifier = new BotVerifier(resolver);

  it.each([
    ["66.249.66.1", true],
    ["::ffff:66.249.66.1", true],
    ["66.249.90.77", true],
    ["34.1.2.3", true],
    ["203.0.113.5", false],
    ["203.0.113.6", false],
    ["203.0.113.7", false],
    ["198.51.100.1", false],
  ])("%s -> %s", async (ip, expected) => {
    expect(await verifier.verified(google, ip)).toBe(expected);
  });

  it("verifies only what a marketplace documents; caches answers per address", async () => {
    const stub = dns({ "66.249.66.1": ["crawl-66-249-66-1.googlebot.com"] }, { "crawl-66-249-66-1.googlebot.com": ["66.249.66.1"] });
    let now = 0;
    const cached = new BotVerifier(stub, () => now);
    expect(await cached.verified(meta, "66.249.66.1")).toBe(false);
    expect(stub.asked).toBe(0);
    expect(await Promise.all([cached.verified(google, "66.249.66.1"), cached.verified(google, "66.249.66.1")])).toEqual([true, true]);
    expect(await cached.verified(google, "66.249.66.1")).toBe(true);
    expect(stub.asked).toBe(2);
    now += 2 * 60 * 60 * 1000;
    expect(await cached.verified(google, "66.249.66.1")).toBe(true);
    expect(stub.asked).toBe(4);
  });
});

describe("the status page with a spoofed Googlebot", () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await makeFixture({ products: 30 });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it("labels it unverified, never Google", async () => {
    // The stub knows no name for 127.0.0.1: the reverse lookup fails, as for any stranger.
    const server = await serve(fx.config, { resolver: dns({}, {}) });
    try {
      await fetchRaw(server.url, "/feeds/google-fr.xml", { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
      const html = (await fetchRaw(server.url, "/", { Authorization: basic(SECRETS.STATUS_USER, SECRETS.STATUS_PASSWORD) })).body.toString("utf8");
      expect(html).toContain('Google <span class="muted">(unverified)</span>: <time');
      expect(html).not.toContain("Google: <time");
    } finally {
      await server.close(1000);
    }
  });
});
