/**
 * Access per channel with right, wrong and missing credentials, and the rule
 * that a refusal looks the same whether the file exists or not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPharmafeedError } from "../../src/errors.js";
import { loadConfig } from "../../src/config/load.js";
import { readManifest, type Manifest } from "../../src/publish/manifest.js";
import type { FeedServer } from "../../src/serve/server.js";
import { askAndLog, basic, fetchRaw, makeFixture, memoryLogger, SECRETS, serve, type Fixture } from "./helpers.js";

let fx: Fixture;
let server: FeedServer;
let manifest: Manifest;
const log = memoryLogger();
const file = (name: string) => manifest.channels.find((c) => c.name === name)!.live!.file;

beforeAll(async () => {
  fx = await makeFixture();
  server = await serve(fx.config, { accessLog: log.logger });
  manifest = (await readManifest(fx.config.outputDir))!;
});
afterAll(async () => {
  await server?.close(1000);
  await fx?.close();
});

/** The parts of a refusal a client can compare. */
async function refusal(path: string, headers: Record<string, string> = {}) {
  const r = await fetchRaw(server.url, path, headers);
  return { status: r.status, challenge: r.headers["www-authenticate"], type: r.headers["content-type"], body: r.body.toString("utf8") };
}

describe("open", () => {
  it("serves without credentials, and ignores credentials sent anyway", async () => {
    expect((await fetchRaw(server.url, `/feeds/${file("google-fr")}`)).status).toBe(200);
    expect((await fetchRaw(server.url, `/feeds/${file("google-fr")}`, { Authorization: basic("x", "y") })).status).toBe(200);
  });
  it("is not reachable under a token path", async () => {
    expect((await fetchRaw(server.url, `/feeds/${SECRETS.FEED_TOKEN}/${file("google-fr")}`)).status).toBe(404);
  });
});

describe("HTTP Basic", () => {
  const path = () => `/feeds/${file("meta-fr")}`;
  it("right credentials: 200", async () => {
    const r = await fetchRaw(server.url, path(), { Authorization: basic(SECRETS.FEED_USER, SECRETS.FEED_PASSWORD) });
    expect(r.status).toBe(200);
    expect(r.headers["cache-control"]).toBe("private, no-cache");
    expect(r.body.toString("utf8").split("\n")[0]).toContain("id");
  });
  it("missing, wrong password, wrong user, malformed: 401 with a challenge", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: basic(SECRETS.FEED_USER, "wrong") },
      { Authorization: basic("someone", SECRETS.FEED_PASSWORD) },
      { Authorization: basic(SECRETS.FEED_USER, `${SECRETS.FEED_PASSWORD}x`) },
      { Authorization: "Basic !!!" },
      { Authorization: `Bearer ${SECRETS.FEED_PASSWORD}` },
    ];
    for (const headers of attempts) {
      const r = await refusal(path(), headers);
      expect(r.status, JSON.stringify(headers)).toBe(401);
      expect(r.challenge).toBe('Basic realm="feeds", charset="UTF-8"');
    }
  });
  it("the feed's credentials do not open the status page, nor the status page's the feed", async () => {
    expect((await fetchRaw(server.url, "/", { Authorization: basic(SECRETS.FEED_USER, SECRETS.FEED_PASSWORD) })).status).toBe(401);
    expect((await fetchRaw(server.url, path(), { Authorization: basic(SECRETS.STATUS_USER, SECRETS.STATUS_PASSWORD) })).status).toBe(401);
  });
});

describe("token in the path", () => {
  it("right token: 200", async () => {
    const r = await fetchRaw(server.url, `/feeds/${SECRETS.FEED_TOKEN}/${file("idealo-fr")}`);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/csv; charset=utf-8");
  });
  it("wrong token, no token, another channel's name: refused", async () => {
    const wrong = SECRETS.FEED_TOKEN.replace(/.$/, "0");
    expect((await fetchRaw(server.url, `/feeds/${wrong}/${file("idealo-fr")}`)).status).toBe(404);
    expect((await fetchRaw(server.url, `/feeds/${SECRETS.FEED_TOKEN}/${file("meta-fr")}`)).status).toBe(404);
    expect((await fetchRaw(server.url, `/feeds/${file("idealo-fr")}`)).status).toBe(401);
  });
  it("never writes the token to the access log", async () => {
    await fetchRaw(server.url, `/feeds/${SECRETS.FEED_TOKEN}/${file("idealo-fr")}`);
    await fetchRaw(server.url, `/feeds/${SECRETS.FEED_TOKEN}/nothing.csv`);
    const lines = log.lines().filter((l) => String(l["msg"]).includes("<token>"));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(log.lines())).not.toContain(SECRETS.FEED_TOKEN);
    const served = lines.find((l) => l["msg"] === `GET /feeds/<token>/${file("idealo-fr")}` && l["status"] === 200);
    expect(served).toMatchObject({ level: "info", channel: "idealo-fr" });
    expect(served!["bytes"]).toBeGreaterThan(0);
    for (const key of ["time", "ms", "ua"]) expect(served).toHaveProperty(key);
  });
});

describe("access log", () => {
  it("counts the body bytes sent of every answer: status page, its script and reports, health, refusals, feeds", async () => {
    const page = { Authorization: basic(SECRETS.STATUS_USER, SECRETS.STATUS_PASSWORD) };
    const asked: [string, Record<string, string>][] = [
      ["/", page],
      ["/status.js", page],
      ["/status/reports/google-fr.csv", page],
      ["/healthz", {}],
      ["/monitor", {}],
      ["/", {}],
      [`/feeds/${file("google-fr")}`, {}],
    ];
    for (const [path, headers] of asked) {
      const { reply, line } = await askAndLog(server.url, log.lines, path, headers);
      expect(reply.body.length, path).toBeGreaterThan(0);
      expect(line["bytes"], path).toBe(reply.body.length);
    }
  });
});

describe("a refusal does not tell whether a file exists", () => {
  it("on /feeds/<name>: a missing name, a protected feed and a token feed answer alike", async () => {
    const missing = await refusal("/feeds/no-such-feed.xml");
    const protectedFeed = await refusal(`/feeds/${file("meta-fr")}`);
    const wrongPassword = await refusal(`/feeds/${file("meta-fr")}`, { Authorization: basic(SECRETS.FEED_USER, "nope") });
    const missingWithCredentials = await refusal("/feeds/no-such-feed.xml", { Authorization: basic(SECRETS.FEED_USER, SECRETS.FEED_PASSWORD) });
    const tokenFeed = await refusal(`/feeds/${file("idealo-fr")}`);
    for (const other of [protectedFeed, wrongPassword, missingWithCredentials, tokenFeed]) expect(other).toEqual(missing);
  });
  it("on /feeds/<token>/<name>: a wrong token and a missing name answer alike", async () => {
    const wrong = await refusal(`/feeds/${"x".repeat(32)}/${file("idealo-fr")}`);
    const missing = await refusal(`/feeds/${SECRETS.FEED_TOKEN}/no-such-feed.csv`);
    expect(wrong).toEqual(missing);
    expect(wrong.status).toBe(404);
  });
  it("without any Basic channel, every refusal is a plain 404", async () => {
    const open = await serve(fx.config, {
      channels: fx.config.channels.map((c) => ({ name: c.name, preset: c.preset.name, access: c.access.mode === "basic" ? { mode: "open" as const } : c.access })),
    });
    try {
      expect((await fetchRaw(open.url, "/feeds/no-such-feed.xml")).status).toBe(404);
      expect((await fetchRaw(open.url, `/feeds/${file("idealo-fr")}`)).status).toBe(404);
      expect((await fetchRaw(open.url, `/feeds/${file("meta-fr")}`)).status).toBe(200);
    } finally {
      await open.close(1000);
    }
  });
});

describe("config", () => {
  it("generate loads without the serve secrets; serve refuses to start without them or with weak ones (CONFIG_INVALID)", async () => {
    const env = { ...fx.env, FEED_PASSWORD: "", STATUS_PASSWORD: "" };
    await expect(loadConfig(fx.tree.configFile, { env, checkCredentials: false })).resolves.toBeDefined();
    const error = await loadConfig(fx.tree.configFile, { env, checkCredentials: false, serve: true }).catch((e: unknown) => e);
    expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toMatch(/FEED_PASSWORD is not set/);
    expect((error as Error).message).toMatch(/STATUS_PASSWORD is not set/);
    const weak = await loadConfig(fx.tree.configFile, { env: { ...fx.env, FEED_PASSWORD: "short", FEED_TOKEN: "abc" }, checkCredentials: false, serve: true }).catch((e: unknown) => e);
    expect(isPharmafeedError(weak, "CONFIG_INVALID")).toBe(true);
    expect((weak as Error).message).toMatch(/access\.password: at least 12 characters/);
    expect((weak as Error).message).toMatch(/access\.token: 24 to 256/);
  });
});
