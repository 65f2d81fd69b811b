/**
 * `serve` alerts when the feeds go stale: once per episode (however often it
 * checks), again after they were fresh and went stale anew; logged each time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotifySettings } from "../../src/notify/settings.js";
import type { FeedServer } from "../../src/serve/server.js";
import { startReceiver, type HttpReceiver } from "../notify/receivers.js";
import { makeFixture, memoryLogger, serve, type Fixture } from "./helpers.js";

let fx: Fixture;
let hook: HttpReceiver;
beforeAll(async () => {
  fx = await makeFixture({ products: 60 });
  hook = await startReceiver();
});
afterAll(async () => {
  await hook?.close();
  await fx?.close();
});

describe("stale feeds", () => {
  it("alert once per episode, with the feeds' age and what to do", async () => {
    let clock = new Date(Date.now() + 40 * 3600_000);
    const { logger, lines } = memoryLogger();
    const server: FeedServer = await serve(fx.config, {
      now: () => clock,
      maxFeedAgeHours: 36,
      logger,
      notify: NotifySettings.parse({ webhooks: [{ url: hook.url, format: "slack" }] }),
    });
    try {
      // Startup checks once; more checks in the same episode send nothing more.
      for (let i = 0; i < 3; i++) await server.checkStale();
      expect(hook.received).toHaveLength(1);
      const text = (hook.received[0]!.body as { text: string }).text;
      expect(text).toMatch(/^\*Pharmacie <Test> & Fils: feeds are stale\*\nThe newest feed online is 4\d\.\d h old, more than the 36 h allowed: marketplaces get old prices and stock\./);
      expect(text).toContain("What to do: The marketplaces are fetching old prices and stock.");
      expect(text).toContain("- google-fr: online file published ");

      clock = new Date();
      await server.checkStale();
      clock = new Date(Date.now() + 50 * 3600_000);
      await server.checkStale();
      await server.checkStale();
      expect(hook.received).toHaveLength(2);
      expect(lines().map((l) => l["msg"]).filter((m) => String(m).startsWith("feeds are"))).toEqual(["feeds are stale", "feeds are fresh again", "feeds are stale"]);
    } finally {
      await server.close(1000);
    }
  });
});
