/**
 * Loads the main config and every channel file in passes, astro-style:
 * parse each file (JSON, ${ENV} references, strict schema), then resolve
 * paths, presets and defaults, then cross-check (unique names and files, known
 * locales, layouts that load and compile, the source filter, credentials).
 * Every problem of every file is collected; one CONFIG_INVALID lists them all.
 */
import { basename, dirname, extname, join, resolve } from "node:path";
import { ProductFilter, ProductSorting } from "../catalogue/query/product-filter.js";
import { resolveSourceOptions, type SourceOptions } from "../catalogue/options.js";
import { PharmafeedError } from "../errors.js";
import { ChannelMapping, type ChannelMappingInput } from "../mapping/settings.js";
import { offerColumnsProblems } from "../mapping/offers-columns.js";
import { temporaryPath } from "../core/atomic-file.js";
import { type Env, exists, isPlainObject, merge, parseFile, Problems, refused } from "./parse.js";
import { type ChannelEntry, readShopFiles, selectShops, shopFiles, type ShopSpec } from "./shops.js";
import { PRESETS } from "../presets/index.js";
import { imageConfigProblems } from "../images/check.js";
import { serveConfigProblems } from "../serve/check.js";
import { BUILTIN_TEMPLATES, loadLayout } from "../writers/load-layout.js";
import { WRITERS } from "../writers/registry.js";
import { generalSaleFieldProblems, layoutFieldProblems, mappingFieldProblems } from "./fields.js";
import type { PolicyProblem, PolicyRule } from "../policy/index.js";
import { policyChannelOf } from "../presets/policy-channels.js";
import { applyPolicy, loadPolicyRules } from "./policy.js";
import { forShop, sharedDestinationProblems } from "./shop-destinations.js";
import { CHANNEL_ONLY_KEYS, ChannelFile, MainConfig } from "./schema.js";
import type { LoadedChannel, LoadedConfig } from "./types.js";
import { merchantChannel } from "../merchant/channel.js";
import { type DestinationConfig, SECRET_FIELDS } from "../destinations/settings.js";
import { REPORTS_DIR, RESERVED_OUTPUT_NAMES } from "../core/layout.js";
import { SNAPSHOT_SECRET_PATH } from "./snapshot-settings.js";

/** What the run itself keeps in the output directory. */

/** ext4, XFS, btrfs, tmpfs and NTFS refuse a longer file name (NAME_MAX). */
const MAX_NAME_BYTES = 255;
/** Largest pid Linux hands out (pid_max's ceiling, 2^22): temporary names carry one. */
const LONGEST_PID = String(2 ** 22);

/** The longest name a run writes for `file`: its temporary twin (atomic-output), with the longest pid. */
function longestWrittenName(file: string): number {
  return Buffer.byteLength(basename(temporaryPath(join("/", file)))) + LONGEST_PID.length - String(process.pid).length;
}

/** Locales the catalogue serves (BE: nl, fr, en, de; FR: fr, en; AU: en). */
export const KNOWN_LOCALES = ["fr", "nl", "en", "de"] as const;

/** On the raw file, so that an unknown locale is reported even beside other problems. */
function checkLocales(file: string, raw: Record<string, unknown>, problems: Problems): void {
  const fallbacks = Array.isArray(raw["fallbackLocales"]) ? raw["fallbackLocales"] : [];
  const entries: [string, unknown][] = [["locale", raw["locale"]], ...fallbacks.map((l, i): [string, unknown] => [`fallbackLocales[${i}]`, l])];
  for (const [path, locale] of entries) {
    if (typeof locale === "string" && !(KNOWN_LOCALES as readonly string[]).includes(locale)) {
      problems.add(file, path, `unknown locale "${locale}", expected one of ${KNOWN_LOCALES.join(", ")}`);
    }
  }
}

/** Secrets only `serve` uses: `generate` and `validate` load a config without them set. */
const CHANNEL_SERVE_SECRETS = ["access.user", "access.password", "access.token"];
/** Unset, the run goes on and the read-back says it could not start (a Problem, never a refused config). */
const CHANNEL_MERCHANT_SECRETS = ["merchant.credentials"];
const MAIN_SERVE_SECRETS = ["serve.status.user", "serve.status.password"];
const DESTINATION_SECRET_PATH = new RegExp(`^destinations\\[\\d+\\]\\.(${SECRET_FIELDS.join("|")})$`);

/** The paths `validate --no-credentials` lets be unset: the catalogue's, the snapshot bucket's and the destinations' secrets. */
const NO_CREDENTIALS_PATHS: readonly (string | RegExp)[] = ["source.baseUrl", "source.keyId", "source.keySecret", "source.contact", SNAPSHOT_SECRET_PATH, DESTINATION_SECRET_PATH];

/** Whether `--no-credentials` would let an unset variable at `path` be. */
export function isCredentialPath(path: string): boolean {
  return NO_CREDENTIALS_PATHS.some((p) => (typeof p === "string" ? p === path : p.test(path)));
}

async function loadChannel(entry: ChannelEntry, env: Env, problems: Problems, tolerate: readonly (string | RegExp)[], destinations: DestinationConfig[], shop: string | undefined): Promise<LoadedChannel | undefined> {
  const { file } = entry;
  const { raw, data } = await parseFile(file, ChannelFile, env, problems, [...tolerate, ...CHANNEL_MERCHANT_SECRETS], [], entry.over);
  checkLocales(file, raw, problems);
  if (!data) return undefined;
  const preset = PRESETS[data.preset]!;
  const userMapping = Object.fromEntries(Object.entries(raw).filter(([key]) => !(CHANNEL_ONLY_KEYS as readonly string[]).includes(key)));
  // The preset says which marketplace the policy table's rows name (a channel file may say another).
  const withPolicy = merge({ ...preset.mapping, policy: { channel: policyChannelOf(preset.name) } }, userMapping);
  const mapping = ChannelMapping.safeParse(withPolicy as ChannelMappingInput);
  if (!mapping.success) {
    problems.addIssues(file, mapping.error.issues, userMapping);
    return undefined;
  }
  // Until loadConfig puts the table under them (config/policy.ts), a channel's rows are its own only.
  const userPolicy = userMapping["policy"];
  if (!(isPlainObject(userPolicy) && Array.isArray(userPolicy["rows"]))) mapping.data.policy.rows = [];
  const layoutDir = data.template ? resolve(dirname(file), data.template) : join(BUILTIN_TEMPLATES, preset.layout);
  // Names no item has (`{{titel}}`, a rule on `pricee`) are refused now, not rendered empty all night.
  const fieldProblems = mappingFieldProblems(file, mapping.data);
  let layout;
  try {
    layout = await loadLayout(layoutDir);
    fieldProblems.push(...layoutFieldProblems(layout, data.template ? Object.keys(mapping.data.custom) : undefined));
    // Compiles every template now, so a broken one fails validation, not the nightly run.
    // After the name check, which says more about a prototype name than "unknown helper".
    if (fieldProblems.length === 0) WRITERS[layout.spec.format].create(layout, { channel: data.name, title: "", link: "", description: "", generatedAt: "", locale: "", country: "" });
  } catch (error) {
    problems.fromError(error);
  }
  if (fieldProblems.length > 0 || layout === undefined) {
    problems.lines.push(...fieldProblems);
    return undefined;
  }
  const format = layout.spec.format;
  // reports/<channel>.csv must not be the Google issues report (src/merchant/report.ts).
  if (data.name === "google-issues") problems.add(file, "name", `"google-issues" is taken by reports/google-issues.csv (Google's issues, docs/google-merchant.md)`);
  if (data.merchant && !data.preset.startsWith("google")) problems.add(file, "merchant", `a Merchant Center account belongs to a Google channel; preset "${data.preset}" is not one`);
  return {
    configFile: file,
    name: data.name,
    preset,
    layout,
    format,
    outputFile: data.file ?? `${data.name}.${WRITERS[format].extension}`,
    gzip: data.gzip,
    gate: data.gate,
    access: data.access,
    feed: data.feed ?? {},
    mapping: mapping.data,
    ...(data.merchant ? { merchant: merchantChannel(file, data.name, data.merchant, mapping.data) } : {}),
    destinations: data.destinations ? forShop(data.destinations, shop, file, problems) : destinations,
  };
}


export interface LoadOptions {
  env?: Env;
  /** --channel: keep the named channels. */
  only?: readonly string[];
  /** false: `validate` runs where the secrets are not present. */
  checkCredentials?: boolean;
  /** true: the secrets of `pharmafeed serve` (feed access, status pages) are required and checked. */
  serve?: boolean;
  /** push: the destinations' secrets are required, the catalogue's are not (with checkCredentials false). */
  push?: boolean;
  /** false: the notify section's unset variables are no error (the section is then left out; validate, explain). */
  notify?: boolean;
  /** --shop: the shop of a config with `shops` that a one-shop command works on. */
  shop?: string;
}

/** What every file of one load shares: the environment, the problems, the secrets tolerated. */
interface LoadScope {
  env: Env;
  options: LoadOptions;
  /** The problems of the file being resolved (a shop's own, or the one config's). */
  problems: Problems;
  /** The main file's problems: they refuse every shop. */
  mainProblems: Problems;
  destinationSecrets: RegExp[];
  /** What the main file alone decides, worked out once per load however many shops resolve it. */
  once: { query?: true; source?: SourceOptions | undefined; policy?: PolicyRule[] };
}

function scopeOf(options: LoadOptions): LoadScope {
  const destinationSecrets = options.checkCredentials === false && options.push !== true ? [DESTINATION_SECRET_PATH] : [];
  const problems = new Problems();
  return { env: options.env ?? process.env, options, problems, mainProblems: problems, destinationSecrets, once: {} };
}

/** The source's filter and sorting as the API's schemas read them: the main file's problems, said once. */
function checkQuery(file: string, main: { raw: Record<string, unknown> }, scope: LoadScope): void {
  if (scope.once.query) return;
  scope.once.query = true;
  const rawSource = isPlainObject(main.raw["source"]) ? main.raw["source"] : {};
  const query = { filter: rawSource["filter"] ?? { status: "active" }, sorting: rawSource["sorting"] ?? { id: "ASC" } };
  const filter = ProductFilter.safeParse(query.filter);
  if (!filter.success) scope.mainProblems.addIssues(file, filter.error.issues, query.filter, ["source", "filter"]);
  const sorting = ProductSorting.safeParse(query.sorting);
  if (!sorting.success) scope.mainProblems.addIssues(file, sorting.error.issues, query.sorting, ["source", "sorting"]);
}

/** The catalogue's credentials (unless not checked), resolved once for every shop. */
function sourceOf(file: string, config: MainConfig, scope: LoadScope): SourceOptions | undefined {
  if ("source" in scope.once) return scope.once.source;
  let source: SourceOptions | undefined;
  if (scope.options.checkCredentials !== false) {
    const { priceUnit: _p, filter: _f, sorting: _s, sync: _y, ...connection } = config.source;
    try {
      source = resolveSourceOptions(connection, scope.env);
    } catch (error) {
      if (!(error instanceof PharmafeedError)) throw error;
      // The client names the field and its environment variable; we add the file and section.
      for (const line of error.message.split("\n").slice(1)) scope.mainProblems.lines.push(`${file}: source.${line.trim()}`);
    }
  }
  return (scope.once.source = source);
}

/** The policy table and the main file's rows over it, read once for every shop (its problems are the main file's). */
async function policyOf(file: string, config: MainConfig, scope: LoadScope): Promise<PolicyRule[]> {
  if (scope.once.policy) return scope.once.policy;
  if (config.policy.generalSale !== undefined) scope.mainProblems.lines.push(...generalSaleFieldProblems(file, "policy.generalSale", config.policy.generalSale));
  const read: PolicyProblem[] = [];
  const policy = await loadPolicyRules(file, dirname(file), config.policy, read);
  for (const p of read) scope.mainProblems.add(p.file, p.path, p.message);
  return (scope.once.policy = policy);
}

/** The main file, parsed: its data when it has no problem, its raw object either way. */
async function parseMain(file: string, scope: LoadScope): Promise<{ raw: Record<string, unknown>; data?: MainConfig; skipped?: string[] }> {
  const { options } = scope;
  // The shared snapshot's bucket is generate's alone: every other command goes without its secrets.
  const credentialPaths = [...(options.checkCredentials === false ? NO_CREDENTIALS_PATHS.filter((p) => p !== DESTINATION_SECRET_PATH) : []), ...scope.destinationSecrets];
  const serveSecrets = options.serve === true ? [] : MAIN_SERVE_SECRETS;
  return parseFile(file, MainConfig, scope.env, scope.problems, [...credentialPaths, ...serveSecrets], options.notify === false ? ["notify"] : []);
}

/**
 * Every channel file of a shop, then the main file's and the shop's settings resolved and
 * cross-checked. Problems go to scope.problems; returns undefined when there are any.
 */
async function resolveShop(file: string, main: { raw: Record<string, unknown>; data?: MainConfig; skipped?: string[] }, spec: ShopSpec, scope: LoadScope): Promise<LoadedConfig | undefined> {
  const { env, options, problems } = scope;
  const before = problems.lines.length;
  const channelTolerate = [...(options.serve === true ? [] : CHANNEL_SERVE_SECRETS), ...scope.destinationSecrets];
  // `{shop}` in the folder of a destination the shop inherits is its name (config/shop-destinations.ts).
  const destinations = forShop(spec.destinations ?? [], spec.id, spec.destinations === main.data?.destinations ? file : (spec.file ?? file), problems);
  // One file listed twice would say it clashes with itself (its name, its files): said once, where it is listed.
  const listed = new Map<string, number>();
  const entries = spec.channels.filter((entry, i) => {
    const first = listed.get(entry.file);
    if (first === undefined) return listed.set(entry.file, i) !== undefined;
    const at = entry.namedAt ?? { file: spec.file ?? file, path: `channels[${i}]` };
    problems.add(at.file, at.path, `${entry.file} is listed twice (also channels[${first}]): list each channel file once`);
    return false;
  });
  const channels = (
    await Promise.all(
      entries.map(async (entry) => {
        // A shop's channel file that is not there: said where the shop names it (its file, `channels[i]`).
        if (entry.namedAt && !(await exists(entry.file))) {
          problems.add(entry.namedAt.file, entry.namedAt.path, `no such file ${entry.file}`);
          return undefined;
        }
        return loadChannel(entry, env, problems, channelTolerate, destinations, spec.id);
      }),
    )
  ).filter((c): c is LoadedChannel => c !== undefined);
  const where = spec.file ?? file;
  // `{{{shopUrl}}}` in a shared channel file's templates is each shop's own domain.
  for (const channel of channels) channel.mapping.link.shopUrl = spec.shop.url.replace(/\/+$/, "");

  // Every name a channel writes (the feed, its .gz twin) must be its own and not one of the run's.
  const seen = new Map<string, string>();
  for (const channel of channels) {
    const files = [channel.outputFile, ...(channel.gzip ? [`${channel.outputFile}.gz`] : [])];
    for (const file of files) {
      if (RESERVED_OUTPUT_NAMES.has(file)) problems.add(channel.configFile, "file", `"${file}" is a name pharmafeed uses itself in the output directory`);
      const bytes = longestWrittenName(file);
      if (bytes > MAX_NAME_BYTES) {
        problems.add(channel.configFile, channel.outputFile === `${channel.name}.${WRITERS[channel.format].extension}` ? "name" : "file", `"${file}" is too long: written as a temporary file of ${bytes} bytes, where file systems allow ${MAX_NAME_BYTES}; keep the name under ${MAX_NAME_BYTES - (bytes - Buffer.byteLength(file))} bytes`);
      }
    }
    const report = `${channel.name}.csv`;
    if (longestWrittenName(report) > MAX_NAME_BYTES) problems.add(channel.configFile, "name", `"${channel.name}" is too long for its report file ${REPORTS_DIR}/${report}`);
    for (const [kind, value] of [["name", channel.name], ...files.map((f) => ["file", f])] as const) {
      const other = seen.get(`${kind} ${value}`);
      if (other) problems.add(channel.configFile, kind, `"${value}" is also ${kind === "file" ? "written" : "used"} by ${other}`);
      seen.set(`${kind} ${value}`, channel.configFile);
    }
  }
  for (const name of options.only ?? []) {
    if (!channels.some((c) => c.name === name) && spec.channels.length === channels.length) {
      problems.add(where, "channels", `no channel named "${name}" (--channel); known: ${channels.map((c) => c.name).join(", ")}`);
    }
  }

  checkQuery(file, main, scope);

  const config = main.data;
  if (!config) {
    // The main file refused by its schema still has its policy files read, when its policy section
    // parses: validate lists every problem of every file at once (a review found them hidden).
    const section = MainConfig.shape.policy.safeParse(main.raw["policy"]);
    if (section.success) await policyOf(file, { policy: section.data } as MainConfig, scope);
    return undefined;
  }

  const offersOf = spec.offers;
  const offersFile = offersOf ? resolve(offersOf.base, offersOf.config.file) : undefined;
  const offersWhere = offersOf && spec.file && offersOf.base === dirname(spec.file) ? spec.file : file;
  if (offersFile && !(await exists(offersFile))) problems.add(offersWhere, "offers.file", `no such file ${offersFile}`);
  const offersFormat = offersOf?.config.format ?? (offersFile && extname(offersFile).toLowerCase() === ".json" ? "json" : "csv");
  for (const p of offersOf ? offerColumnsProblems(offersOf.config) : []) problems.add(offersWhere, p.path, p.message);

  const source = sourceOf(file, config, scope);

  const policy = await policyOf(file, config, scope);
  const policyProblems: PolicyProblem[] = [];
  applyPolicy(where, policy, channels, spec.shop.certifications, new Map(channels.map((c) => [c, c.mapping.policy.rows])), policyProblems, config.policy.generalSale);
  for (const p of policyProblems) problems.add(p.file, p.path, p.message);

  const serve = { ...config.serve, status: spec.status };
  problems.lines.push(...imageConfigProblems({ channels, publicBaseUrl: spec.publicBaseUrl }));
  if (options.serve === true) problems.lines.push(...serveConfigProblems({ file: where, serve, channels }));
  if (problems.lines.length > before) return undefined;

  return {
    file,
    ...(spec.id !== undefined ? { shopId: spec.id, shopFile: spec.file } : {}),
    ...(spec.language ? { language: spec.language } : {}),
    source,
    priceUnit: config.source.priceUnit,
    query: { filter: config.source.filter, sorting: config.source.sorting },
    sync: config.source.sync,
    shop: spec.shop,
    policy,
    outputDir: spec.outputDir,
    publicBaseUrl: spec.publicBaseUrl,
    offers:
      offersFile && offersOf
        ? {
            file: offersFile,
            format: offersFormat,
            columns: offersOf.config.columns,
            ignoreColumns: offersOf.config.ignoreColumns,
            minAcceptedPercent: offersOf.config.minAcceptedPercent,
            maxDropPercent: offersOf.config.maxDropPercent,
          }
        : undefined,
    channels: options.only && options.only.length > 0 ? channels.filter((c) => options.only!.includes(c.name)) : channels,
    channelNames: channels.map((c) => c.name),
    serve,
    notify: spec.notify,
    history: config.history,
    lock: config.lock,
    ...(config.snapshot ? { snapshot: config.snapshot } : {}),
    ...(main.skipped ? { skipped: main.skipped } : {}),
  };
}

/** The main file's own shop: what a config without `shops` always was. */
function ownShop(file: string, main: { raw: Record<string, unknown>; data?: MainConfig }): ShopSpec {
  const base = dirname(file);
  const rawChannels = Array.isArray(main.raw["channels"]) ? main.raw["channels"].filter((c): c is string => typeof c === "string") : [];
  const data = main.data;
  return {
    shop: data?.shop ?? { name: "", url: "", description: "", certifications: [] },
    // A broken main file still has its channel files checked, so one run shows every problem.
    channels: (data?.channels ?? rawChannels).map((c) => ({ file: resolve(base, c) })),
    offers: data?.offers ? { config: data.offers, base } : undefined,
    outputDir: resolve(base, data?.output.dir ?? "output"),
    publicBaseUrl: data?.output.publicBaseUrl,
    destinations: data?.destinations,
    status: data?.serve.status,
    notify: data?.notify,
  };
}

/** A config's shops, those refused by their own files apart: one shop's broken file never stops the others. */
export interface LoadedShops {
  /** Absolute path of the main file. */
  file: string;
  /** Every shop the main file names (selected or not), in its order. */
  names: string[];
  /** Where the shops' folders are (the main file's output.dir); a config without shops: its output. */
  outputDir: string;
  /** True when the main file names `shops`. */
  many: boolean;
  shops: LoadedConfig[];
  /** Shops whose own file (or channel files) were refused: CONFIG_INVALID each. */
  refused: { name: string; file: string; error: PharmafeedError; problems: string[]; language?: LoadedConfig["language"] }[];
  /** Many: the main file's serve.status, the operator's credentials (serve's overview of every shop). */
  status?: { user: string; password: string };
}

export interface ShopSelection {
  /** Names or globs (`--shops`, `--shop`); none: every shop. */
  names?: readonly string[];
  /** `--shard i/n`: the shops whose name's digest falls on shard i (config/shops.ts shardOf). */
  shard?: { index: number; count: number };
}

/**
 * A config's shops (docs/shops.md). The main file's problems refuse everything (thrown); a shop
 * file's only that shop (in `refused`), unless `strict` (validate: every problem is one error).
 */
export async function loadShops(configFile: string, options: LoadOptions & { select?: ShopSelection; strict?: boolean } = {}): Promise<LoadedShops> {
  const file = resolve(configFile);
  const scope = scopeOf(options);
  const main = await parseMain(file, scope);
  const listed = main.data?.shops ?? (typeof main.raw["shops"] === "string" || Array.isArray(main.raw["shops"]) ? (main.raw["shops"] as string | string[]) : undefined);
  if (listed === undefined) {
    const one = await resolveShop(file, main, ownShop(file, main), scope);
    // The main file's own problems (a secret written in it) leave its data parsed: they refuse it all the same.
    if (!one || scope.problems.lines.length > 0) throw refused(file, scope.problems);
    return { file, names: [], outputDir: one.outputDir, many: false, shops: [one], refused: [] };
  }
  const files = await shopFiles(file, listed, scope.problems);
  if (!main.data || scope.problems.lines.length > 0) throw refused(file, scope.problems);
  const shopScope = {
    env: scope.env,
    tolerate: [...(options.serve === true ? [] : MAIN_SERVE_SECRETS), ...scope.destinationSecrets],
    optional: options.notify === false ? ["notify"] : [],
  };
  const entries = await readShopFiles(file, main.data, files, shopScope, scope.problems);
  // serve uploads nothing: a config it served before is not refused for where runs push.
  if (options.serve !== true) await sharedDestinationProblems(file, main.data.destinations, entries, scope.problems);
  const names = entries.map((e) => e.name);
  if (scope.problems.lines.length > 0) throw refused(file, scope.problems);
  const chosen = selectShops(file, names, options.select);
  const result: LoadedShops = { file, names, outputDir: resolve(dirname(file), main.data.output.dir), many: true, shops: [], refused: [], ...(main.data.serve.status ? { status: main.data.serve.status } : {}) };
  for (const entry of entries) {
    if (!chosen.has(entry.name)) continue;
    const problems = new Problems();
    problems.lines.push(...entry.problems);
    const loaded = entry.spec && problems.lines.length === 0 ? await resolveShop(file, main, entry.spec, { ...scope, problems }) : undefined;
    if (loaded && problems.lines.length === 0) result.shops.push(loaded);
    else result.refused.push({ name: entry.name, file: entry.file, error: refused(entry.file, problems), problems: problems.lines, ...(entry.language ? { language: entry.language } : {}) });
  }
  // The main file's problems met while resolving the shops (its filter, its credentials, its policy files): everything refused.
  if (scope.problems.lines.length > 0) throw refused(file, scope.problems);
  if (options.strict === true && result.refused.length > 0) {
    const all = new Problems();
    for (const r of result.refused) all.lines.push(...r.problems);
    throw refused(file, all);
  }
  return result;
}

/**
 * One shop's config: a config without `shops`, or the shop `--shop` names. A config of many
 * shops without --shop is refused with their names (a one-shop command must be told which).
 */
export async function loadConfig(configFile: string, options: LoadOptions = {}): Promise<LoadedConfig> {
  const loaded = await loadShops(configFile, { ...options, strict: true, ...(options.shop !== undefined ? { select: { names: [options.shop] } } : {}) });
  if (!loaded.many) {
    if (options.shop !== undefined) throw new PharmafeedError("USAGE", `--shop ${options.shop}: ${loaded.file} names no shops (it is one shop: leave --shop out)`, { context: { file: loaded.file } });
    return loaded.shops[0]!;
  }
  if (loaded.shops.length === 1 && options.shop !== undefined) return loaded.shops[0]!;
  throw new PharmafeedError("CONFIG_INVALID", `${loaded.file} holds ${loaded.names.length} shops: name one with --shop (${loaded.names.join(", ")})`, { context: { file: loaded.file } });
}
