/**
 * What serve must not give away (issue 15, item 8): a channel token in any log line, and,
 * through the time a refusal takes, whether a protected file exists.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compare } from "../../src/serve/access.js";
import type { FeedServer } from "../../src/serve/server.js";
import { basic, fetchRaw, makeFixture, memoryLogger, rawRequestLine, SECRETS, serve, type Fixture } from "./helpers.js";

let fx: Fixture;
beforeAll(async () => {
  fx = await makeFixture({ products: 40 });
});
afterAll(async () => {
  await fx?.close();
});

const TOKEN = SECRETS.FEED_TOKEN;
const escaped = TOKEN.replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);

describe("tokens in the logs", () => {
  it("never appear in an access or error log line, whatever the request looks like", async () => {
    const access = memoryLogger();
    const events = memoryLogger();
    const server: FeedServer = await serve(fx.config, { accessLog: access.logger, logger: events.logger });
    try {
      const requests: [string, Record<string, string>][] = [
        [`/feeds/${TOKEN}/idealo-fr.csv`, {}],
        [`/feeds/${TOKEN}/no-such-file.csv`, {}],
        [`/feeds/${TOKEN}`, {}],
        [`/feeds/${TOKEN}/`, {}],
        [`/feeds/${TOKEN}/idealo-fr.csv/extra`, {}],
        [`/feeds/${TOKEN}/../idealo-fr.csv`, {}],
        [`/images/${TOKEN}/idealo-fr.csv`, {}],
        [`/${TOKEN}`, {}],
        [`/feeds/idealo-fr.csv?token=${TOKEN}`, {}],
        [`/feeds/${escaped}/idealo-fr.csv`, {}],
        [`/feeds/x${TOKEN}y/idealo-fr.csv`, {}],
        [`/feeds/meta-fr.csv`, { "user-agent": `curl ${TOKEN}` }],
        [`/feeds/${TOKEN}/google-fr.xml`, { authorization: basic(SECRETS.FEED_USER, SECRETS.FEED_PASSWORD) }],
      ];
      const statuses: number[] = [];
      for (const [path, headers] of requests) statuses.push((await fetchRaw(server.url, path, headers)).status);
      statuses.push(await rawRequestLine(server.url, `/feeds/${TOKEN}/a b`));
      expect(statuses[0]).toBe(200);
      expect(statuses.slice(1).every((s) => s !== 200)).toBe(true);
      // Lines are written when each response closes: wait for one per request (the raw one may have none).
      while (access.lines().length < requests.length) await new Promise((resolve) => setTimeout(resolve, 10));
      const lines = [...access.lines(), ...events.lines()];
      const all = JSON.stringify(lines);
      expect(all).not.toContain(TOKEN);
      expect(all).not.toContain(escaped);
      for (let cut = 8; cut < TOKEN.length; cut += 8) expect(all, "no long piece of the token either").not.toContain(TOKEN.slice(0, cut + 8).slice(-16));
      expect(all).toContain("<token>");
    } finally {
      await server.close();
    }
  });
});

describe("refusals do the same work whether the file exists or not", () => {
  it("the same digest comparisons for a wrong password on a served file and on a missing one", async () => {
    const server: FeedServer = await serve(fx.config);
    const equal = compare.equal;
    let calls = 0;
    compare.equal = (a, b) => {
      calls++;
      return equal(a, b);
    };
    try {
      const count = async (path: string, headers: Record<string, string>): Promise<[number, number]> => {
        calls = 0;
        const { status } = await fetchRaw(server.url, path, headers);
        return [status, calls];
      };
      const wrong = { authorization: basic(SECRETS.FEED_USER, "not the password at all") };
      const served = await count("/feeds/meta-fr.csv", wrong);
      const missing = await count("/feeds/meta-fr-old.csv", wrong);
      expect(served).toEqual([401, 3]);
      expect(missing).toEqual(served);
      // With a token path: the token feed, a missing name, an open feed.
      const wrongToken = "x".repeat(32);
      const onToken = await count(`/feeds/${wrongToken}/idealo-fr.csv`, {});
      expect(onToken).toEqual([404, 3]);
      expect(await count(`/feeds/${wrongToken}/nothing.csv`, {})).toEqual(onToken);
      expect(await count(`/feeds/${wrongToken}/google-fr.xml`, {})).toEqual(onToken);
      // And without credentials at all.
      expect(await count("/feeds/meta-fr.csv", {})).toEqual(await count("/feeds/gone.csv", {}));
    } finally {
      compare.equal = equal;
      await server.close();
    }
  });
});
