/**
 * One shop's secret must never open another shop's feeds or page (issue 36): serve refuses a
 * config of many shops where two shops share a feed token, Basic credentials or status login,
 * or where a shop holds the operator's password, naming the shop file and the channel, never
 * the secret; at start, and when a shop's config is read again after its run. One shop: a
 * feed's secret must not open its status page.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServe } from "../../src/commands/serve.js";
import { isPharmafeedError } from "../../src/errors.js";
import { sharedSecretProblems } from "../../src/serve/check.js";
import { writeTree } from "../config/tree.js";
import { ndjson, publishAll, type HandFeed } from "./hand-made.js";
import { basic as basicHeader, fetchRaw, memoryLogger } from "./helpers.js";

const TOKEN = "0123456789abcdef0123456789abcdef";
const shop = (id: string, channels: { name: string; access: never }[], status?: { user: string; password: string }) => ({ id, file: `/cfg/shops/${id}.json`, status, channels });
const token = (name: string, value: string) => ({ name, access: { mode: "token", token: value } as never });
const basic = (name: string, user: string, password: string) => ({ name, access: { mode: "basic", user, password } as never });

describe("secrets shared between shops", () => {
  it("a channel file shared with one token: refused at the second shop, the secret never said", () => {
    const lines = sharedSecretProblems([shop("alpha", [token("idealo", TOKEN)]), shop("beta", [token("idealo", TOKEN)]), shop("gamma", [token("idealo", `${TOKEN}x`)])]);
    expect(lines).toEqual([`/cfg/shops/beta.json: channels (idealo).access.token: the same secret as shop alpha's channel idealo: whoever holds one would open the other; give each shop its own (in its shop file, docs/shops.md)`]);
    expect(lines.join("\n")).not.toContain(TOKEN);
  });

  it("Basic credentials and status logins count alike; the same secret twice within one shop is that shop's own business", () => {
    const lines = sharedSecretProblems([
      shop("alpha", [basic("google", "google", "a-long-password-1"), basic("microsoft", "google", "a-long-password-1")], { user: "boss", password: "status-password-9" }),
      shop("beta", [basic("google", "google", "a-long-password-2")], { user: "boss", password: "status-password-9" }),
    ]);
    expect(lines).toEqual([`/cfg/shops/beta.json: serve.status: the same secret as shop alpha's status page: whoever holds one would open the other; give each shop its own (in its shop file, docs/shops.md)`]);
  });

  it("the operator's password in a shop's feed (Basic password or token) or manager login: refused, naming the shop file", () => {
    const operator = { file: "/cfg/pharmafeed.json", status: { user: "operator", password: "operator-password-1" } };
    const lines = sharedSecretProblems(
      [
        shop("alpha", [basic("google", "merchant", "operator-password-1")]),
        shop("beta", [token("idealo", "operator-password-1")], { user: "beta", password: "beta-page-password" }),
        shop("gamma", [], { user: "boss", password: "operator-password-1" }),
      ],
      operator,
    );
    expect(lines).toEqual([
      "/cfg/shops/alpha.json: channels (google).access: the same secret as the operator's status login (/cfg/pharmafeed.json: serve.status): whoever holds this shop's channel google would open the overview and every shop's page; give the shop its own",
      "/cfg/shops/beta.json: channels (idealo).access.token: the same secret as the operator's status login (/cfg/pharmafeed.json: serve.status): whoever holds this shop's channel idealo would open the overview and every shop's page; give the shop its own",
      "/cfg/shops/gamma.json: serve.status: the same secret as the operator's status login (/cfg/pharmafeed.json: serve.status): whoever holds this shop's status page login would open the overview and every shop's page; give the shop its own",
    ]);
    expect(lines.join("\n")).not.toContain("operator-password-1");
  });

  it("open feeds and different secrets: nothing to say", () => {
    expect(sharedSecretProblems([shop("alpha", [{ name: "open", access: { mode: "open" } as never }, token("idealo", TOKEN)]), shop("beta", [{ name: "open", access: { mode: "open" } as never }])])).toEqual([]);
  });
});

const ENV = {
  TEST_KEY_ID: "demo",
  TEST_KEY_SECRET: "not-used-by-serve",
  OPERATOR_PASSWORD: "operator-password-1",
  ALPHA_PASSWORD: "alpha-page-password",
  BETA_PASSWORD: "beta-page-password",
  BETA_NEW_PASSWORD: "beta-new-page-password",
  ALPHA_TOKEN: "tok_alpha_3f9a1c7e5b2d4a6c8e0f1a2b",
  BETA_TOKEN: "tok_beta_9e8d7c6b5a4f3e2d1c0b9a8f7e",
  BETA_NEW_TOKEN: "tok_beta_new_0a1b2c3d4e5f6a7b8c9d",
};
const link = { template: "https://shop.example/p/{{id}}" };
const login = (user: string, password: string) => ({ user, password });
const AUTH = {
  operator: { Authorization: basicHeader("operator", ENV.OPERATOR_PASSWORD) },
  alpha: { Authorization: basicHeader("alpha-manager", ENV.ALPHA_PASSWORD) },
  beta: { Authorization: basicHeader("beta-manager", ENV.BETA_PASSWORD) },
  betaNew: { Authorization: basicHeader("beta-manager", ENV.BETA_NEW_PASSWORD) },
};
const tokenChannel = (token: string) => ({ file: "../channels/token.json", access: { mode: "token", token } });
const shopJson = (name: string, channels: unknown[], status?: { user: string; password: string }) => ({ shop: { name, url: "https://shop.example/" }, channels, ...(status ? { serve: { status } } : {}) });
const feeds = (shop: string): HandFeed[] => ["shop-open", "shop-token"].map((name) => ({ name, file: `${name}.ndjson`, content: ndjson(3, `${shop}:${name}`) }));

/** Alpha and beta, each with its own token and manager; `shops` replaces what a test changes. */
async function tree(shops: Record<string, unknown> = {}): Promise<string> {
  return writeTree({
    "config/pharmafeed.json": {
      source: { baseUrl: "https://api.catalogue.example", keyId: "${TEST_KEY_ID}", keySecret: "${TEST_KEY_SECRET}", contact: "feeds@pharmacy.example" },
      shop: { name: "Groupe", url: "https://groupe.example" },
      output: { dir: "../out", publicBaseUrl: "https://feeds.example" },
      shops: ["shops/alpha.json", "shops/beta.json"],
      serve: { status: login("operator", "${OPERATOR_PASSWORD}") },
    },
    "config/channels/open.json": { name: "shop-open", preset: "generic-ndjson", locale: "fr", link },
    "config/channels/token.json": { name: "shop-token", preset: "generic-ndjson", locale: "fr", link },
    "config/shops/alpha.json": shopJson("Alpha", ["../channels/open.json", tokenChannel("${ALPHA_TOKEN}")], login("alpha-manager", "${ALPHA_PASSWORD}")),
    "config/shops/beta.json": shopJson("Beta", ["../channels/open.json", tokenChannel("${BETA_TOKEN}")], login("beta-manager", "${BETA_PASSWORD}")),
    ...shops,
  });
}

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/** serve's own start over the tree; its refusal, or a server. */
async function start(root: string, logger = memoryLogger().logger) {
  roots.push(root);
  await publishAll(join(root, "out/alpha"), feeds("alpha"));
  await publishAll(join(root, "out/beta"), feeds("beta"));
  return startServe({ config: join(root, "config/pharmafeed.json"), host: "127.0.0.1", port: 0 }, { env: ENV, logger });
}

describe("serve refuses to start", () => {
  it("when a shop's feed holds the operator's credentials: its marketplace would open the overview and every shop's page", async () => {
    const basicFeed = { file: "../channels/open.json", access: { mode: "basic", user: "operator", password: "${OPERATOR_PASSWORD}" } };
    const root = await tree({ "config/shops/alpha.json": shopJson("Alpha", [basicFeed, tokenChannel("${ALPHA_TOKEN}")], login("alpha-manager", "${ALPHA_PASSWORD}")) });
    const error = await start(root).catch((e: unknown) => e);
    expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toContain(`${join(root, "config/shops/alpha.json")}: channels (shop-open).access: the same secret as the operator's status login`);
    expect((error as Error).message).not.toContain(ENV.OPERATOR_PASSWORD);
  });

  it("when a shop manager's login is the operator's", async () => {
    const root = await tree({ "config/shops/beta.json": shopJson("Beta", ["../channels/open.json", tokenChannel("${BETA_TOKEN}")], login("operator", "${OPERATOR_PASSWORD}")) });
    const error = await start(root).catch((e: unknown) => e);
    expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toContain(`${join(root, "config/shops/beta.json")}: serve.status: the same secret as the operator's status login`);
  });

  it("one shop: when a feed's Basic credentials are the status page's (docs/serve.md: the page has its own)", async () => {
    const root = await tree({
      "config/one.json": {
        source: { baseUrl: "https://api.catalogue.example", keyId: "${TEST_KEY_ID}", keySecret: "${TEST_KEY_SECRET}", contact: "feeds@pharmacy.example" },
        shop: { name: "Solo", url: "https://solo.example" },
        output: { dir: "../out/alpha" },
        channels: ["channels/basic.json"],
        serve: { status: login("alpha-manager", "${ALPHA_PASSWORD}") },
      },
      "config/channels/basic.json": { name: "shop-open", preset: "generic-ndjson", locale: "fr", link, access: { mode: "basic", user: "alpha-manager", password: "${ALPHA_PASSWORD}" } },
    });
    roots.push(root);
    await publishAll(join(root, "out/alpha"), feeds("alpha"));
    const error = await startServe({ config: join(root, "config/one.json"), host: "127.0.0.1", port: 0 }, { env: ENV, logger: memoryLogger().logger }).catch((e: unknown) => e);
    expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toContain(`${join(root, "config/one.json")}: serve.status: the same secret as channel shop-open's access`);
  });
});

describe("a shop's config read again after its run", () => {
  it("is held to the rule of start: a secret another shop (or the operator) holds keeps the rules known, said on the overview and in the log; a clean one takes the new token and login", async () => {
    const log = memoryLogger();
    const root = await tree();
    const { server } = await start(root, log.logger);
    const at = async (path: string, headers: Record<string, string> = {}) => (await fetchRaw(server.url, path, headers)).status;
    const betaFile = join(root, "config/shops/beta.json");
    /** Beta's file changed, then a run of beta: the request after its new manifest reads the config again. */
    const runBeta = async (file: unknown, firstAsked = "/beta/healthz", headers: Record<string, string> = {}) => {
      await writeFile(betaFile, JSON.stringify(file));
      await publishAll(join(root, "out/beta"), feeds("beta"));
      expect(await at(firstAsked, headers)).toBe(200);
    };
    try {
      expect(await at(`/beta/feeds/${ENV.BETA_TOKEN}/shop-token.ndjson`)).toBe(200);

      // Alpha's token and alpha's manager login: alpha's marketplace and manager would open beta's.
      await runBeta(shopJson("Beta", ["../channels/open.json", tokenChannel("${ALPHA_TOKEN}")], login("alpha-manager", "${ALPHA_PASSWORD}")));
      expect(await at(`/beta/feeds/${ENV.ALPHA_TOKEN}/shop-token.ndjson`)).toBe(404);
      expect(await at(`/beta/feeds/${ENV.BETA_TOKEN}/shop-token.ndjson`)).toBe(200);
      expect(await at("/beta/", AUTH.alpha)).toBe(401);
      expect(await at("/beta/", AUTH.beta)).toBe(200);
      const overview = (await fetchRaw(server.url, "/", AUTH.operator)).body.toString();
      expect(overview).toMatch(/config refused when read again after a run \(serving with the access rules known before\): \S+beta\.json: \S+: the same secret as shop alpha&#39;s/);
      const warned = log.lines().find((l) => l["msg"] === "config not read again; serving the channels known so far" && l["shop"] === "beta");
      expect(String(warned?.["error"])).toContain("the same secret as shop alpha's channel shop-token");
      expect(JSON.stringify(log.lines())).not.toContain(ENV.ALPHA_TOKEN);

      // The operator's login as beta's manager's: refused alike.
      await runBeta(shopJson("Beta", ["../channels/open.json", tokenChannel("${BETA_TOKEN}")], login("operator", "${OPERATOR_PASSWORD}")));
      expect((await fetchRaw(server.url, "/", AUTH.operator)).body.toString()).toContain("serve.status: the same secret as the operator&#39;s status login");
      expect(await at("/beta/", AUTH.beta)).toBe(200);

      // Its own new token and password: taken, the old ones no longer open anything, the overview is clear.
      await runBeta(shopJson("Beta", ["../channels/open.json", tokenChannel("${BETA_NEW_TOKEN}")], login("beta-manager", "${BETA_NEW_PASSWORD}")));
      expect(await at(`/beta/feeds/${ENV.BETA_NEW_TOKEN}/shop-token.ndjson`)).toBe(200);
      expect(await at(`/beta/feeds/${ENV.BETA_TOKEN}/shop-token.ndjson`)).toBe(404);
      expect(await at("/beta/", AUTH.betaNew)).toBe(200);
      expect(await at("/beta/", AUTH.beta)).toBe(401);
      expect((await fetchRaw(server.url, "/", AUTH.operator)).body.toString()).not.toContain("config refused when read again");
      // The page itself, asked first after a run, is checked against the login that run's config gives.
      await runBeta(shopJson("Beta", ["../channels/open.json", tokenChannel("${BETA_NEW_TOKEN}")], login("beta-manager", "${BETA_PASSWORD}")), "/beta/", AUTH.beta);
      expect(await at("/beta/", AUTH.betaNew)).toBe(401);

      // Beta's old token is free again: alpha may take it; beta's new one is not.
      await writeFile(join(root, "config/shops/alpha.json"), JSON.stringify(shopJson("Alpha", ["../channels/open.json", tokenChannel("${BETA_NEW_TOKEN}")], login("alpha-manager", "${ALPHA_PASSWORD}"))));
      await publishAll(join(root, "out/alpha"), feeds("alpha"));
      expect(await at(`/alpha/feeds/${ENV.BETA_NEW_TOKEN}/shop-token.ndjson`)).toBe(404);
      expect(await at(`/alpha/feeds/${ENV.ALPHA_TOKEN}/shop-token.ndjson`)).toBe(200);
    } finally {
      await server.close(1000);
    }
  });
});
