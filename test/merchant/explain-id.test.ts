/**
 * explain and Google's verdict when the feed id is not the catalogue id (issue 35,
 * point 9): a Google channel with `id.template` "PF-{{id}}", Google (the fake) knowing
 * the products by that id. explain by the catalogue id shows Google's verdict on offer id
 * PF-<id>; explain by the feed id finds the same product. The BUILT command line.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExplainAnswer } from "../../src/explain/explain.js";
import { disapproval } from "../../src/merchant/fake/state.js";
import { catalogueIdsOf, idOfRow, renderedId } from "../../src/merchant/offer-id.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig, type ChannelFileJson, type E2eConfig } from "../e2e/config.js";
import { itemId, parseFeed } from "../e2e/feeds.js";
import { startFake, type FakeSetup } from "./helpers.js";

let sandbox: SandboxHandle;
let fake: FakeSetup;
let config: E2eConfig;
let feedIds: string[];
const env = () => ({ ...sandboxEnv(sandbox), PF_TEST_GOOGLE_KEY: fake.keyFile });

async function explainJson(query: string): Promise<ExplainAnswer> {
  const result = await runCli(["explain", "--config", config.configFile, "--json", query], { env: env() });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ExplainAnswer;
}

beforeAll(async () => {
  ensureBuilt();
  [sandbox, fake] = await Promise.all([startSandbox({ seed: 13, products: 40, rateLimit: 100_000 }), startFake()]);
  const google: ChannelFileJson = {
    ...channelsForEveryPreset().find((c) => c.name === "google-fr")!,
    id: { template: "PF-{{id}}" },
    merchant: { accountId: fake.account.id, credentials: "${PF_TEST_GOOGLE_KEY}", apiUrl: fake.api.url },
  };
  config = await writeConfig({ channels: [google] });
  const run = await runCli(["generate", "--config", config.configFile, "--workers", "0"], { env: env() });
  if (run.code !== 0) throw new Error(`generate failed (${run.code}): ${run.stderr}`);
  feedIds = parseFeed(await readFile(join(config.outputDir, "google-fr.xml"), "utf8"), "xml").map((r) => itemId(r, "google"));
  // Google knows the products by the feed's ids; it disapproves the first.
  fake.account.add(feedIds, { status: (_, i) => (i === 0 ? { disapprovedCountries: ["FR"], issues: [disapproval("invalid_gtin", "gtins", "Invalid GTIN value", ["FR"])] } : { approvedCountries: ["FR"] }) });
  const sync = await runCli(["merchant", "sync", "--config", config.configFile], { env: env() });
  if (sync.code !== 0) throw new Error(`merchant sync failed (${sync.code}): ${sync.stderr}`);
}, 120_000);

afterAll(async () => {
  killAll();
  await Promise.all([sandbox?.close(), fake?.close()]);
  await removeTemporaries();
});

describe("explain finds Google's product by the channel's id template", () => {
  it("by the catalogue id: Google's verdict on offer id PF-<id>", async () => {
    expect(feedIds[0]).toMatch(/^PF-/);
    const catalogueId = feedIds[0]!.slice(3);
    const answer = await explainJson(catalogueId);
    expect(answer.products[0]!.channels[0]!.google).toMatchObject({ state: "disapproved", offerId: feedIds[0], issues: [{ code: "invalid_gtin" }] });
    const text = await runCli(["explain", "--config", config.configFile, catalogueId], { env: env() });
    expect(text.stdout).toContain(`Google's verdict on offer id ${feedIds[0]} (Merchant Center`);
  }, 60_000);

  it("by the feed id: the same product, with Google's verdict", async () => {
    const answer = await explainJson(feedIds[1]!);
    expect(answer).toMatchObject({ query: feedIds[1], matchedBy: "id" });
    expect(answer.products[0]!.id).toBe(feedIds[1]!.slice(3));
    expect(answer.products[0]!.channels[0]).toMatchObject({ outcome: "in_feed", google: { state: "approved", offerId: feedIds[1] } });
  }, 60_000);
});

describe("offer ids from a template and from the row written", () => {
  it("turns a template that wraps {{id}} both ways, and leaves other templates alone", () => {
    expect(renderedId("PF-{{id}}", "123")).toBe("PF-123");
    expect(renderedId("{{{id}}}-fr ", "123")).toBe("123-fr");
    expect(renderedId("{{gtin}}", "123")).toBeUndefined();
    expect(catalogueIdsOf("PF-123", ["{{id}}", "PF-{{id}}", "{{brand}}-{{id}}"])).toEqual(["PF-123", "123"]);
    expect(catalogueIdsOf("PF-", ["PF-{{id}}"])).toEqual([]);
  });

  it("reads the id of a Google XML item and of a google-tsv line (by its header)", () => {
    expect(idOfRow("<item>\n<g:id>A&amp;B</g:id>\n</item>", "/", undefined)).toBe("A&B");
    expect(idOfRow("x\ty", "/nonexistent", "feed.tsv")).toBeUndefined();
  });

  it("reads a google-tsv line's id by the header of the file it was written in", async () => {
    await writeFile(join(fake.dir, "feed.tsv"), "title\tid\tprice\nA title\tPF-9\t1.00 EUR\n");
    expect(idOfRow("A title\tPF-9\t1.00 EUR\n", fake.dir, "feed.tsv")).toBe("PF-9");
  });
});
