/** A fake Merchant API with one account and a made-up service account key written to a temporary file. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MerchantClient } from "../../src/merchant/client.js";
import { makeTestKey, writeTestKey, type TestKey } from "../../src/merchant/fake/key.js";
import { FakeMerchantApi } from "../../src/merchant/fake/server.js";
import type { FakeAccount } from "../../src/merchant/fake/state.js";

export const ACCOUNT = "5550001";
export const FAST_RETRY = { maxRetries: 3, baseMs: 0, maxMs: 0, jitter: "none" as const };

export interface FakeSetup {
  api: FakeMerchantApi;
  account: FakeAccount;
  key: TestKey;
  keyFile: string;
  dir: string;
  client(options?: { retry?: typeof FAST_RETRY; keyFile?: string }): Promise<MerchantClient>;
  close(): Promise<void>;
}

export async function startFake(): Promise<FakeSetup> {
  const api = new FakeMerchantApi();
  await api.start();
  const key = makeTestKey(api.tokenUri);
  const account = api.account(ACCOUNT, { clientEmail: key.key.client_email, publicKey: key.publicKey });
  const dir = await mkdtemp(join(tmpdir(), "pf-merchant-"));
  const keyFile = join(dir, "service-account.json");
  await writeTestKey(keyFile, key.key);
  const clients: MerchantClient[] = [];
  return {
    api,
    account,
    key,
    keyFile,
    dir,
    async client(options = {}) {
      const client = await MerchantClient.open({ accountId: ACCOUNT, keyFile: options.keyFile ?? keyFile, apiUrl: api.url, retry: options.retry ?? FAST_RETRY });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await api.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
