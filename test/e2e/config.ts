/**
 * Config trees for the end-to-end runs: a main file and one channel per preset
 * (French and Dutch), written to a temp folder with the config tests' writer.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRESET_NAMES } from "../../src/presets/index.js";
import { writeTree, type Tree } from "../config/tree.js";

/** Dutch for the presets of Dutch-speaking marketplaces, German for the German comparators, French elsewhere. */
const LOCALE: Record<string, "fr" | "nl" | "de"> = {
  "google-tsv": "nl",
  "meta-xml": "nl",
  beslist: "nl",
  "generic-csv": "nl",
  medizinfuchs: "de",
  billiger: "de",
  "idealo-de": "de",
};

export type ChannelFileJson = Record<string, unknown> & { name: string; preset: string };

/**
 * One channel per preset. The gate's rejection threshold is lifted (generated
 * data has many rejections on purpose); the drop threshold keeps its default.
 */
/**
 * What the test shop is certified for: every authorisation the shipped policy table asks of the
 * countries the tests' channels use (FR, BE, NL, DE), so that OTC medicines stay in their feeds
 * as before the table; test/policy/ covers what a missing certification does.
 */
export const TEST_CERTIFICATIONS = [
  "fr-online-pharmacy",
  "be-online-pharmacy",
  "nl-online-pharmacy",
  "de-mail-order-pharmacy",
  "fr-online-veterinary",
  "be-online-veterinary",
  "nl-online-veterinary",
  "google-online-pharmacy-fr",
  "google-online-pharmacy-be",
  "google-online-pharmacy-nl",
  "google-online-pharmacy-de",
];

export function channelsForEveryPreset(): ChannelFileJson[] {
  return PRESET_NAMES.map((preset) => {
    const locale = LOCALE[preset] ?? "fr";
    const channel: ChannelFileJson = {
      name: `${preset}-${locale}`,
      preset,
      locale,
      ...(locale === "nl" ? { fallbackLocales: ["fr", "en"], country: "BE" } : {}),
      // `&` in every link: XML layouts must escape it, CSV must not.
      link: { template: `https://shop.example/${locale}/{{seoName}}-{{id}}.html?utm_source=${preset}&utm_medium=feed` },
      gate: { maxRejectedPercent: 100 },
    };
    if (preset === "generic-ndjson") channel["link"] = { template: "https://shop.example/p/{{id}}" };
    // As the sample config: a generic export has no language policy and opts in to fallbacks (README, Presets, Languages).
    if (preset.startsWith("generic-") && locale === "nl") Object.assign(channel, { title: { fallback: true }, description: { fallback: true } });
    // The sandbox has German text for few products: the German channels read French and English too.
    if (locale === "de") Object.assign(channel, { fallbackLocales: ["fr", "en"], country: "DE", title: { fallback: true }, description: { fallback: true } });
    // Neither the sandbox nor these runs' offers files carry PZNs: without this medizinfuchs would be empty
    // in every run (test/presets/german-comparators.test.ts covers the PZN requirement itself).
    if (preset === "medizinfuchs") channel["codes"] = { required: [] };
    if (preset === "google") channel["gzip"] = true;
    return channel;
  });
}

export interface E2eConfig {
  root: string;
  configFile: string;
  /** Where `output.dir` points. */
  outputDir: string;
}

export interface ConfigOptions {
  channels?: ChannelFileJson[];
  /** source.filter of the main file. */
  filter?: Record<string, unknown>;
  /** Extra keys of the main file's source (retry policy, timeouts). */
  source?: Record<string, unknown>;
  /** Extra files (custom layouts), relative to the config folder. */
  files?: Tree;
  /** Extra keys of the main file (typos, for the broken-config tests). */
  main?: Record<string, unknown>;
}

const temporaries: string[] = [];

/** A fresh temp folder, removed by removeTemporaries(). */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pharmafeed-e2e-"));
  temporaries.push(dir);
  return dir;
}

export async function removeTemporaries(): Promise<void> {
  await Promise.all(temporaries.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

export async function writeConfig(options: ConfigOptions = {}): Promise<E2eConfig> {
  const channels = options.channels ?? channelsForEveryPreset();
  const tree: Tree = {
    "config/pharmafeed.json": {
      source: {
        baseUrl: "https://api.catalogue.invalid",
        keyId: "${CATALOGUE_API_KEY_ID}",
        keySecret: "${CATALOGUE_API_KEY_SECRET}",
        contact: "feeds@pharmacy.example",
        ...(options.filter ? { filter: options.filter } : {}),
        ...options.source,
      },
      shop: { name: "Pharmacie <Test> & Fils", url: "https://shop.example/?lang=fr&src=feed", description: "Parapharmacie", certifications: TEST_CERTIFICATIONS },
      output: { dir: "../out" },
      channels: channels.map((c) => `channels/${c.name}.json`),
      ...options.main,
    },
  };
  for (const channel of channels) tree[`config/channels/${channel.name}.json`] = channel;
  for (const [path, content] of Object.entries(options.files ?? {})) tree[`config/${path}`] = content;
  const root = await writeTree(tree);
  temporaries.push(root);
  return { root, configFile: join(root, "config", "pharmafeed.json"), outputDir: join(root, "out") };
}
