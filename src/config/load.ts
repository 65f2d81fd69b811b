/**
 * Loads the main config and every channel file in passes, astro-style:
 * parse each file (JSON, ${ENV} references, strict schema), then resolve
 * paths, presets and defaults, then cross-check (unique names and files, known
 * locales, layouts that load and compile, the source filter, credentials).
 * Every problem of every file is collected; one CONFIG_INVALID lists them all.
 */
import { access } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { z } from "zod";
import { ProductFilter, ProductSorting } from "../catalogue/query/product-filter.js";
import { resolveSourceOptions, type SourceOptions } from "../catalogue/options.js";
import { PharmafeedError } from "../errors.js";
import { ChannelMapping, type ChannelMappingInput } from "../mapping/settings.js";
import { offerColumnsProblems } from "../mapping/offers-columns.js";
import { temporaryPath } from "../core/atomic-file.js";
import { PRESETS } from "../presets/index.js";
import { imageConfigProblems } from "../images/check.js";
import { serveConfigProblems } from "../serve/check.js";
import { BUILTIN_TEMPLATES, loadLayout } from "../writers/load-layout.js";
import { WRITERS } from "../writers/registry.js";
import { substituteEnv } from "./env.js";
import { generalSaleFieldProblems, layoutFieldProblems, mappingFieldProblems } from "./fields.js";
import { formatIssue } from "../core/issues.js";
import { readJsonFile } from "../core/json-file.js";
import type { PolicyProblem } from "../policy/index.js";
import { policyChannelOf } from "../presets/policy-channels.js";
import { applyPolicy, loadPolicyRules } from "./policy.js";
import { CHANNEL_ONLY_KEYS, ChannelFile, MainConfig } from "./schema.js";
import type { LoadedChannel, LoadedConfig } from "./types.js";
import { merchantChannel } from "../merchant/channel.js";
import { type DestinationConfig, plainSecretPaths, SECRET_FIELDS } from "../destinations/settings.js";
import { REPORTS_DIR, RESERVED_OUTPUT_NAMES } from "../core/layout.js";

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

type Env = Readonly<Record<string, string | undefined>>;

/** One entry per problem: a multi-line one (a Handlebars parse error) stays one entry, indented. */
class Problems {
  readonly lines: string[] = [];
  add(file: string, path: string, message: string): void {
    this.lines.push(`${file}: ${path}: ${message}`);
  }
  /** `under` is where `input` sits in the file, e.g. ["source", "filter"]. */
  addIssues(file: string, issues: readonly z.core.$ZodIssue[], input: unknown, under: string[] = []): void {
    const whole = under.reduceRight<unknown>((inner, key) => ({ [key]: inner }), input);
    for (const issue of issues) this.lines.push(`${file}: ${formatIssue({ ...issue, path: [...under, ...issue.path] }, whole)}`);
  }
  fromError(error: unknown): void {
    if (!(error instanceof PharmafeedError && error.code === "CONFIG_INVALID")) throw error;
    const [first = "", ...rest] = error.message.split("\n").filter((l) => l.trim() !== "");
    // "<file> is invalid (N problems):" heads N lines, one problem each (formatIssues).
    if (/ is invalid \(\d+ problems?\):$/.test(first)) this.lines.push(...rest.map((l) => l.trim()));
    else this.lines.push([first, ...rest.map((l) => `  ${l}`)].join("\n  "));
  }
}

/**
 * Reads a file, substitutes ${ENV} references and validates it. `data` is
 * undefined when it has problems; `raw` still lets later passes look further.
 */
async function parseFile<T>(
  file: string,
  schema: z.ZodType<T>,
  env: Env,
  problems: Problems,
  /** Unset variables tolerated at these paths (validate --no-credentials). */
  tolerate: readonly (string | RegExp)[] = [],
  /** Top-level sections left out (and said in `skipped`) when they hold unset variables: a command that does not use them. */
  optional: readonly string[] = [],
): Promise<{ raw: Record<string, unknown>; data?: T; skipped?: string[] }> {
  let json: unknown;
  try {
    json = await readJsonFile(file);
  } catch (error) {
    problems.fromError(error);
    return { raw: {} };
  }
  for (const path of plainSecretPaths(json)) problems.add(file, path, `written in the file as it is: put it in an environment variable and write "\${VARIABLE}" here (credentials come only from the environment)`);
  const substituted = substituteEnv(json, env);
  const raw = isPlainObject(substituted.value) ? substituted.value : {};
  const skipped: string[] = [];
  const inSection = (path: string, section: string) => path === section || path.startsWith(`${section}.`) || path.startsWith(`${section}[`);
  const dropped = optional.filter((section) => substituted.problems.some((p) => inSection(p.path, section)));
  for (const section of dropped) {
    if (isPlainObject(substituted.value)) delete substituted.value[section];
    const unset = substituted.problems.filter((p) => inSection(p.path, section)).map((p) => p.message);
    skipped.push(`${section}: not checked (${unset.join("; ")}); generate and serve need it`);
  }
  const envProblems = substituted.problems.filter(
    (p) => !tolerate.some((t) => (typeof t === "string" ? t === p.path : t.test(p.path))) && !dropped.some((section) => inSection(p.path, section)),
  );
  for (const p of envProblems) problems.add(file, p.path, p.message);
  const parsed = schema.safeParse(substituted.value);
  if (!parsed.success) {
    problems.addIssues(file, parsed.error.issues, substituted.value);
    return { raw };
  }
  return envProblems.length > 0 ? { raw } : { raw, data: parsed.data, ...(skipped.length > 0 ? { skipped } : {}) };
}

/** Deep merge for plain objects; arrays and scalars of `over` replace those of `base`. */
function merge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

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

async function loadChannel(file: string, env: Env, problems: Problems, tolerate: readonly (string | RegExp)[], destinations: DestinationConfig[]): Promise<LoadedChannel | undefined> {
  const { raw, data } = await parseFile(file, ChannelFile, env, problems, [...tolerate, ...CHANNEL_MERCHANT_SECRETS]);
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
    destinations: data.destinations ?? destinations,
  };
}

function refused(file: string, problems: Problems): PharmafeedError {
  const count = problems.lines.length;
  return new PharmafeedError("CONFIG_INVALID", `configuration refused (${count} problem${count === 1 ? "" : "s"}):\n  ${problems.lines.join("\n  ")}`, {
    context: { file },
  });
}

/**
 * `only` keeps the named channels (--channel); `checkCredentials` false lets
 * `validate` run where the secrets are not present; `serve` true requires and
 * checks the secrets of `pharmafeed serve` (feed access, status page).
 */
export async function loadConfig(
  configFile: string,
  /** push: the destinations' secrets are required, the catalogue's are not (with checkCredentials false). */
  /** notify false: the notify section's unset variables are no error (the section is then left out; validate, explain). */
  options: { env?: Env; only?: readonly string[]; checkCredentials?: boolean; serve?: boolean; push?: boolean; notify?: boolean } = {},
): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const file = resolve(configFile);
  const base = dirname(file);
  const problems = new Problems();
  // Destination secrets (destinations[i].password ...) are needed by generate and push only.
  const destinationSecrets = options.checkCredentials === false && options.push !== true ? [DESTINATION_SECRET_PATH] : [];
  const credentialPaths = [...(options.checkCredentials === false ? ["source.baseUrl", "source.keyId", "source.keySecret", "source.contact"] : []), ...destinationSecrets];
  const serveSecrets = options.serve === true ? [] : MAIN_SERVE_SECRETS;
  const main = await parseFile(file, MainConfig, env, problems, [...credentialPaths, ...serveSecrets], options.notify === false ? ["notify"] : []);
  // A broken main file still has its channel files and filter checked, so one run shows every problem.
  const rawChannels = Array.isArray(main.raw["channels"]) ? main.raw["channels"].filter((c): c is string => typeof c === "string") : [];
  const rawSource = isPlainObject(main.raw["source"]) ? main.raw["source"] : {};
  const channelFiles = (main.data?.channels ?? rawChannels).map((c) => resolve(base, c));
  const channels = (await Promise.all(channelFiles.map((f) => loadChannel(f, env, problems, [...(options.serve === true ? [] : CHANNEL_SERVE_SECRETS), ...destinationSecrets], main.data?.destinations ?? [])))).filter((c): c is LoadedChannel => c !== undefined);

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
    if (!channels.some((c) => c.name === name) && channelFiles.length === channels.length) {
      problems.add(file, "channels", `no channel named "${name}" (--channel); known: ${channels.map((c) => c.name).join(", ")}`);
    }
  }

  const query = { filter: rawSource["filter"] ?? { status: "active" }, sorting: rawSource["sorting"] ?? { id: "ASC" } };
  const filter = ProductFilter.safeParse(query.filter);
  if (!filter.success) problems.addIssues(file, filter.error.issues, query.filter, ["source", "filter"]);
  const sorting = ProductSorting.safeParse(query.sorting);
  if (!sorting.success) problems.addIssues(file, sorting.error.issues, query.sorting, ["source", "sorting"]);

  const config = main.data;
  if (!config) throw refused(file, problems);

  const offersFile = config.offers ? resolve(base, config.offers.file) : undefined;
  if (offersFile && !(await exists(offersFile))) problems.add(file, "offers.file", `no such file ${offersFile}`);
  const offersFormat = config.offers?.format ?? (offersFile && extname(offersFile).toLowerCase() === ".json" ? "json" : "csv");
  for (const p of config.offers ? offerColumnsProblems(config.offers) : []) problems.add(file, p.path, p.message);

  let source: SourceOptions | undefined;
  if (options.checkCredentials !== false) {
    const { priceUnit: _p, filter: _f, sorting: _s, sync: _y, ...connection } = config.source;
    try {
      source = resolveSourceOptions(connection, env);
    } catch (error) {
      if (!(error instanceof PharmafeedError)) throw error;
      // The client names the field and its environment variable; we add the file and section.
      for (const line of error.message.split("\n").slice(1)) problems.lines.push(`${file}: source.${line.trim()}`);
    }
  }

  const policyProblems: PolicyProblem[] = [];
  const policy = await loadPolicyRules(file, base, config.policy, policyProblems);
  applyPolicy(file, policy, channels, config.shop.certifications, new Map(channels.map((c) => [c, c.mapping.policy.rows])), policyProblems, config.policy.generalSale);
  if (config.policy.generalSale !== undefined) problems.lines.push(...generalSaleFieldProblems(file, "policy.generalSale", config.policy.generalSale));
  for (const p of policyProblems) problems.add(p.file, p.path, p.message);

  const publicBaseUrl = config.output.publicBaseUrl;
  problems.lines.push(...imageConfigProblems({ channels, publicBaseUrl }));
  if (options.serve === true) problems.lines.push(...serveConfigProblems({ file, serve: config.serve, channels }));

  if (problems.lines.length > 0) throw refused(file, problems);

  return {
    file,
    source,
    priceUnit: config.source.priceUnit,
    query: { filter: config.source.filter, sorting: config.source.sorting },
    sync: config.source.sync,
    shop: config.shop,
    policy,
    outputDir: resolve(base, config.output.dir),
    publicBaseUrl: config.output.publicBaseUrl,
    offers:
      offersFile && config.offers
        ? {
            file: offersFile,
            format: offersFormat,
            columns: config.offers.columns,
            ignoreColumns: config.offers.ignoreColumns,
            minAcceptedPercent: config.offers.minAcceptedPercent,
            maxDropPercent: config.offers.maxDropPercent,
          }
        : undefined,
    channels: options.only && options.only.length > 0 ? channels.filter((c) => options.only!.includes(c.name)) : channels,
    channelNames: channels.map((c) => c.name),
    serve: config.serve,
    notify: config.notify,
    history: config.history,
    lock: config.lock,
    ...(main.skipped ? { skipped: main.skipped } : {}),
  };
}
