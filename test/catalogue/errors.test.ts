import { createServer } from "node:net";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { createCatalogueClient } from "../../src/catalogue/client.js";
import { isPharmafeedError, type PharmafeedError } from "../../src/errors.js";
import { collect, CONTACT, FAST_RETRY, world } from "./helpers.js";

const ALL = { filter: {}, sorting: { id: "ASC" } } as const;
const WRONG_SECRET = "wrong-secret-must-not-leak-4242";

async function failure(promise: Promise<unknown>): Promise<PharmafeedError> {
  try {
    await promise;
  } catch (error) {
    if (isPharmafeedError(error)) return error;
    throw error;
  }
  throw new Error("expected a failure");
}

describe("errors", () => {
  it("a wrong key gives SOURCE_AUTH with the status and the API's code and message, never the secret", async () => {
    const w = await world({}, { keySecret: WRONG_SECRET });
    try {
      const error = await failure(collect(w.client.streamProducts(ALL)));
      expect(error.code).toBe("SOURCE_AUTH");
      expect(error.message).toMatch(/POST \/v4\/products\/stream: HTTP 401 authentication\.not_authenticated: Authentication required/);
      expect(error.context).toMatchObject({ status: 401, apiCode: "authentication.not_authenticated", retries: 0 });
      expect(w.sandbox.stats.requests).toBe(1);
      const shown = [error.message, inspect(error, { depth: 10 }), JSON.stringify(error.context), inspect(w.client, { depth: 10 }), String(w.client), JSON.stringify(w.client)];
      for (const text of shown) expect(text).not.toContain(WRONG_SECRET);
      const basic = Buffer.from(`${w.sandbox.keyId}:${WRONG_SECRET}`).toString("base64");
      for (const text of shown) expect(text).not.toContain(basic);
    } finally {
      await w.close();
    }
  });

  it("a 429 storm longer than the budget gives RATE_LIMITED with the API's code", async () => {
    const w = await world({ faults: { tooManyFirst: 10 } }, { retry: { ...FAST_RETRY, maxRetries: 2 } });
    try {
      const error = await failure(collect(w.client.streamProducts(ALL)));
      expect(error.code).toBe("RATE_LIMITED");
      expect(error.message).toMatch(/HTTP 429 too_many_requests: .*\(after 2 retries\)/);
      expect(w.sandbox.stats.requests).toBe(3);
    } finally {
      await w.close();
    }
  });

  it("a 5xx burst longer than the budget gives SOURCE_HTTP with the status and code", async () => {
    const w = await world({ faults: { failFirst: 10 } }, { retry: { ...FAST_RETRY, maxRetries: 3 } });
    try {
      const error = await failure(w.client.queryAll("products", { filter: { status: "active" }, sorting: { id: "ASC" } })[Symbol.asyncIterator]().next());
      expect(error.code).toBe("SOURCE_HTTP");
      expect(error.message).toMatch(/POST \/v4\/products\/query: HTTP 503 server\.unavailable: .*\(after 3 retries\)/);
      expect(error.context.status).toBe(503);
    } finally {
      await w.close();
    }
  });

  it("a refused connection gives SOURCE_NETWORK after the budget", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, "127.0.0.1", () => {
        const address = server.address() as { port: number };
        server.close(() => resolve(address.port));
      });
    });
    const client = createCatalogueClient({ baseUrl: `http://127.0.0.1:${port}`, keyId: "k", keySecret: "s", contact: CONTACT, retry: { ...FAST_RETRY, maxRetries: 2 } });
    try {
      const error = await failure(collect(client.streamProducts(ALL)));
      expect(error.code).toBe("SOURCE_NETWORK");
      expect(error.message).toMatch(/ECONNREFUSED.*\(after 2 retries\)/);
    } finally {
      await client.close();
    }
  });

  // undici checks body timeouts on a ~0.5 s clock, hence a stall well above it.
  it("a stalled server with no retries left gives SOURCE_TIMEOUT", async () => {
    const w = await world({ faults: { stallAfterLines: 3, stallMs: 1500 } }, { timeouts: { bodyIdleMs: 100 }, retry: { ...FAST_RETRY, maxRetries: 0 } });
    try {
      const stream = w.client.streamProducts(ALL);
      const error = await failure(collect(stream));
      expect(error.code).toBe("SOURCE_TIMEOUT");
      expect(stream.stats.records).toBe(3);
    } finally {
      await w.close();
    }
  });

  it("create calls repeat a 429 but never a 5xx (the record may exist already)", async () => {
    const w = await world({ faults: { failFirst: 1, tooManyFirst: 2 } });
    try {
      const error = await failure(w.client.createOrganization({ profile: { name: "Once" } }));
      expect(error.code).toBe("SOURCE_HTTP");
      expect(w.sandbox.stats.requests).toBe(1);
      const created = (await w.client.createOrganization({ profile: { name: "Twice" } })) as { id: number };
      expect(created.id).toEqual(expect.any(Number));
      expect(w.sandbox.stats.requests).toBe(4);
    } finally {
      await w.close();
    }
  });

  it("refuses an invalid query before any request", async () => {
    const w = await world();
    try {
      expect(() => w.client.streamProducts({ filter: { status: "gone" } as never, sorting: { id: "ASC" } })).toThrow(/filter\.status/);
      expect(() => w.client.queryAll("products", { filter: {}, sorting: { id: "ASC" }, pageSize: 20 as never })).toThrow(/page\.size/);
      await expect(w.client.list("products" as never)).rejects.toMatchObject({ code: "QUERY_INVALID" });
      expect(w.sandbox.stats.requests).toBe(0);
    } finally {
      await w.close();
    }
  });
});
