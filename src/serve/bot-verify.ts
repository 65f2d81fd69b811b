/**
 * Is a request that says it is Googlebot really Google's? A User-Agent is free text,
 * so the status page credits a fetch to a marketplace only after the check that
 * marketplace documents, and labels every other fetch "unverified".
 *
 * Google documents (https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot,
 * formerly https://support.google.com/webmasters/answer/80553): a reverse DNS lookup of
 * the address gives a name in googlebot.com, google.com or googleusercontent.com, and a
 * forward DNS lookup of that name gives the same address back. The other marketplaces
 * publish no such check: their fetches stay unverified.
 *
 * Answers are cached per address (an hour, 10,000 addresses at most) so that a crawler
 * fetching every hour costs two lookups an hour, and lookups in flight are shared.
 */
import { lookup, reverse } from "node:dns/promises";
import type { Marketplace } from "./bots.js";

/** The two DNS questions, injectable so that tests answer them (a real resolver by default). */
export interface Resolver {
  reverse(ip: string): Promise<string[]>;
  /** Every address of `host`. */
  forward(host: string): Promise<string[]>;
}

export const systemResolver: Resolver = {
  reverse: (ip) => reverse(ip),
  forward: async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address),
};

/** Domains whose hosts may crawl for each marketplace that documents a DNS check. */
const DOCUMENTED: Record<string, readonly string[]> = {
  google: ["googlebot.com", "google.com", "googleusercontent.com"],
};

const TTL_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 10_000;
const LOOKUP_MS = 2_000;

/** ::ffff:66.249.66.1 (an IPv4 client on a dual-stack socket) compares as 66.249.66.1. */
function plain(ip: string): string {
  return ip.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
}

function inDomain(host: string, domains: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return domains.some((d) => name.endsWith(`.${d}`));
}

function withTimeout<T>(work: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), LOOKUP_MS)));
  return Promise.race([work.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

export class BotVerifier {
  private readonly cache = new Map<string, { verified: Promise<boolean>; until: number }>();

  constructor(
    private readonly resolver: Resolver = systemResolver,
    private readonly now: () => number = Date.now,
  ) {}

  /** True only when `marketplace` documents a DNS check and `ip` passes it. */
  verified(marketplace: Marketplace, ip: string | undefined): Promise<boolean> {
    const domains = DOCUMENTED[marketplace.id];
    if (!domains || !ip) return Promise.resolve(false);
    const key = `${marketplace.id} ${plain(ip)}`;
    const hit = this.cache.get(key);
    if (hit && hit.until > this.now()) return hit.verified;
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    const verified = this.check(plain(ip), domains);
    this.cache.set(key, { verified, until: this.now() + TTL_MS });
    return verified;
  }

  private async check(ip: string, domains: readonly string[]): Promise<boolean> {
    const names = (await withTimeout(this.resolver.reverse(ip))) ?? [];
    for (const name of names.map((n) => n.toLowerCase().replace(/\.$/, "")).filter((n) => inDomain(n, domains))) {
      const addresses = (await withTimeout(this.resolver.forward(name))) ?? [];
      if (addresses.some((a) => plain(a) === ip)) return true;
    }
    return false;
  }
}
