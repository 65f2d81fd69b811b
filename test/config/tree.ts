/** Writes a config fixture tree (main file, channel files, templates) into a temp folder. */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadConfig } from "../../src/config/load.js";
import type { PharmafeedError } from "../../src/errors.js";

export type Tree = Record<string, unknown>;

export const VALID_MAIN = {
  source: {
    baseUrl: "https://api.catalogue.example",
    keyId: "${TEST_KEY_ID}",
    keySecret: "${TEST_KEY_SECRET}",
    contact: "feeds@pharmacy.example",
  },
  shop: { name: "Pharmacie Test", url: "https://pharmacie.example" },
  output: { dir: "../out" },
  channels: ["channels/google-fr.json", "channels/meta-nl.json"],
};

export const VALID_TREE: Tree = {
  "config/pharmafeed.json": VALID_MAIN,
  "config/channels/google-fr.json": { name: "google-fr", preset: "google", locale: "fr", link: { template: "https://pharmacie.example/p/{{id}}" }, gzip: true },
  "config/channels/meta-nl.json": { name: "meta-nl", preset: "meta", locale: "nl", fallbackLocales: ["fr", "en"], title: { maxLength: 120 } },
};

export const TEST_ENV = { TEST_KEY_ID: "demo", TEST_KEY_SECRET: "s3cr3t-value-never-printed" };

export async function writeTree(tree: Tree): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "pharmafeed-config-"));
  for (const [path, content] of Object.entries(tree)) {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

/** The error loadConfig refuses `tree` with; the tree's folder is added to `roots` for cleanup. Throws if accepted. */
export async function refusal(tree: Tree, roots: string[]): Promise<PharmafeedError> {
  const root = await writeTree(tree);
  roots.push(root);
  try {
    await loadConfig(join(root, "config/pharmafeed.json"), { env: TEST_ENV });
  } catch (error) {
    return error as PharmafeedError;
  }
  throw new Error("the config was accepted");
}
