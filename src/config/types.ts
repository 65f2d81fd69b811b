import type { PolicyRule } from "../policy/index.js";
import type { SourceOptions } from "../catalogue/options.js";
import type { ChannelMapping } from "../mapping/settings.js";
import type { OfferColumns } from "../mapping/offers-columns.js";
import type { Preset } from "../presets/index.js";
import type { LoadedLayout, OutputFormat } from "../writers/layout.js";
import type { GateSettings } from "../publish/gate.js";
import type { AccessConfig, MainConfig } from "./schema.js";
import type { MerchantChannel } from "../merchant/settings.js";
import type { DestinationConfig } from "../destinations/settings.js";

/** The offers file of a run, how its headers read, and the thresholds under which it is refused (see pipeline/offers-file.ts). */
export interface OffersConfig extends OfferColumns {
  file: string;
  format: "csv" | "json";
  minAcceptedPercent: number;
  maxDropPercent: number;
}

/** A channel after its file was validated and merged over its preset. */
export interface LoadedChannel {
  configFile: string;
  name: string;
  preset: Preset;
  layout: LoadedLayout;
  format: OutputFormat;
  /** File name inside the output directory. */
  outputFile: string;
  gzip: boolean;
  gate: GateSettings;
  access: AccessConfig;
  feed: { title?: string; link?: string; description?: string };
  mapping: ChannelMapping;
  /** Google channels with a Merchant Center account (src/merchant/). */
  merchant?: MerchantChannel;
  /** Where its published files are pushed (its own list, else the main file's). */
  destinations: DestinationConfig[];
}

export interface LoadedConfig {
  /** Absolute path of the main file. */
  file: string;
  /** The shop's key when the main file names `shops` (docs/shops.md): its folder under output.dir, its path under serve. */
  shopId?: string;
  /** The shop's own file. */
  shopFile?: string;
  /** The shop's language (its alerts, its status page by default). */
  language?: "en" | "fr" | "nl";
  /** Undefined only when loaded without credentials (validate --no-credentials). */
  source: SourceOptions | undefined;
  priceUnit: "cents" | "euro";
  query: { filter: Record<string, unknown>; sorting: Record<string, unknown> };
  /** source.sync: the default source of generate and the delta's limits. */
  sync: MainConfig["source"]["sync"];
  shop: { name: string; url: string; description: string; certifications?: string[] };
  /** The health policy rows every channel starts from (the table, the config's files and rows), with where each was read. */
  policy: PolicyRule[];
  outputDir: string;
  publicBaseUrl: string | undefined;
  offers: OffersConfig | undefined;
  /** The channels to run (all, or those named with --channel). */
  channels: LoadedChannel[];
  /** Every channel of the config, run or not. */
  channelNames: string[];
  serve: MainConfig["serve"];
  /** Where alerts go; undefined: nowhere (the log and exit code only). */
  notify: MainConfig["notify"];
  /** Sections not checked because the command does not use them and their variables are unset (loadConfig's notify: false). */
  skipped?: string[];
  lock: MainConfig["lock"];
  /** How many runs' published feeds are kept (history/). */
  history: MainConfig["history"];
  /** The main file's: the shared snapshot's copy in a bucket (docs/shops.md, "Beyond one machine"). */
  snapshot?: MainConfig["snapshot"];
}
