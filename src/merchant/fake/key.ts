/** A made-up service account key for the fake (a fresh RSA pair; nothing real). */
import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import type { ServiceAccountKey } from "../key.js";

export interface TestKey {
  key: ServiceAccountKey;
  publicKey: string;
}

export function makeTestKey(tokenUri: string, clientEmail = "feeds@pharmafeed-test.iam.gserviceaccount.com"): TestKey {
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    key: {
      type: "service_account",
      client_email: clientEmail,
      private_key: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      private_key_id: "test-key-1",
      token_uri: tokenUri,
      project_id: "pharmafeed-test",
    },
    publicKey: pair.publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

export async function writeTestKey(file: string, key: ServiceAccountKey): Promise<void> {
  await writeFile(file, `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600 });
}
