/**
 * The shops of a main file with `shops` (docs/shops.md): which files, what each holds over the
 * main file, and which of them a run takes (`--shops`, `--shard i/n`).
 *
 * A shop's folder and URL path are its name, so a name is unique and never one of the names the
 * output directory or `serve` use themselves.
 */
import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import picomatch from "picomatch";
import { PharmafeedError } from "../errors.js";
import { RESERVED_OUTPUT_NAMES } from "../core/layout.js";
import type { DestinationConfig } from "../destinations/settings.js";
import { type Env, isPlainObject, parseFile, Problems } from "./parse.js";
import { type MainConfig, ShopName } from "./schema.js";
import { ShopFile } from "./shop-file.js";
import { ALERT_LANGUAGES } from "../notify/alert-words.js";
import type { LoadedConfig } from "./types.js";

/** A channel file to load, with the keys a shop file merges over it. */
export interface ChannelEntry {
  file: string;
  over?: Record<string, unknown>;
  /** Where a shop's channel is named (the shop file's or the main file's `channels[i]`): a file that is not there is said there. */
  namedAt?: { file: string; path: string };
}

/** One shop's settings over the main file's (a config without `shops` is its own one shop). */
export interface ShopSpec {
  /** The shop's key; undefined: the config is one shop. */
  id?: string;
  /** The shop file. */
  file?: string;
  shop: NonNullable<MainConfig["shop"]>;
  channels: ChannelEntry[];
  offers: { config: NonNullable<MainConfig["offers"]>; base: string } | undefined;
  outputDir: string;
  publicBaseUrl: string | undefined;
  destinations: DestinationConfig[] | undefined;
  status: MainConfig["serve"]["status"];
  notify: MainConfig["notify"];
  language?: LoadedConfig["language"];
}

/** Paths `serve` answers at its root, beside /<shop>/ (serve/server.ts): no shop may be called so. */
export const SERVE_ROOT_NAMES: ReadonlySet<string> = new Set(["feeds", "healthz", "monitor", "search", "status", "shops", "assets", "favicon.ico", "robots.txt"]);

/** The shop files a main file names: its list, or every `*.json` of its folder (by name, hidden files left out). */
export async function shopFiles(file: string, listed: string | readonly string[], problems: Problems): Promise<string[]> {
  const base = dirname(file);
  if (Array.isArray(listed)) return listed.map((f) => resolve(base, f));
  const folder = resolve(base, listed as string);
  try {
    // `.JSON` as `.json` (a file copied from another system is no less a shop); hidden files are
    // an editor's (emacs' `.#alpha.json` lock, a dangling link) or a sync tool's, never a shop.
    const names = (await readdir(folder)).filter((n) => extname(n).toLowerCase() === ".json" && !n.startsWith(".")).sort();
    if (names.length === 0) problems.add(file, "shops", `${folder} holds no shop file (*.json)`);
    return names.map((n) => join(folder, n));
  } catch (error) {
    problems.add(file, "shops", `cannot read the folder ${folder}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return [];
  }
}

/** A shop file read: its spec, or its problems (that shop refused, the others go on). */
export interface ShopEntry {
  name: string;
  file: string;
  spec?: ShopSpec;
  problems: string[];
  /** Its name is no shop's (invalid, reserved): the main file's problem, since a refused shop's record goes to output/<name>/. */
  nameProblems: string[];
  /** Its `language` as written, when it is one: a refused shop's alert is still in its language. */
  language?: LoadedConfig["language"];
}

export interface ShopScope {
  env: Env;
  /** Unset variables tolerated at these paths of a shop file (secrets a command does not use). */
  tolerate: readonly (string | RegExp)[];
  /** Sections left out when their variables are unset (notify, for validate and explain). */
  optional: readonly string[];
}

/** Every shop file, parsed against the main file. Names twice are the main file's problem (added to `problems`). */
export async function readShopFiles(file: string, main: MainConfig, files: readonly string[], scope: ShopScope, problems: Problems): Promise<ShopEntry[]> {
  const entries = await Promise.all(files.map((f) => readShopFile(file, main, f, scope)));
  const seen = new Map<string, string>();
  for (const entry of entries) {
    problems.lines.push(...entry.nameProblems);
    const other = seen.get(entry.name);
    if (other) problems.add(entry.file, "name", `shop "${entry.name}" is also ${other}`);
    seen.set(entry.name, entry.file);
  }
  return entries;
}

async function readShopFile(mainFile: string, main: MainConfig, file: string, scope: ShopScope): Promise<ShopEntry> {
  const problems = new Problems();
  const parsed = await parseFile(file, ShopFile, scope.env, problems, scope.tolerate, scope.optional);
  const fallbackName = basename(file, extname(file)).toLowerCase();
  const named = typeof parsed.raw["name"] === "string";
  const name = parsed.data?.name ?? (named ? (parsed.raw["name"] as string) : fallbackName);
  // The name is the shop's folder: one that is no shop name ("..", "Pharmacie Nord") or a reserved one refuses every shop.
  const naming = new Problems();
  if (!ShopName.safeParse(name).success) {
    if (named) naming.add(file, "name", `"${name}" is no shop name (lower-case letters, digits and dashes, at most 63)`);
    else naming.add(file, "name", `the file's name "${fallbackName}" is no shop name (lower-case letters, digits and dashes): say one with "name"`);
  } else if (RESERVED_OUTPUT_NAMES.has(name) || SERVE_ROOT_NAMES.has(name)) naming.add(file, "name", `"${name}" is a name pharmafeed uses itself (the output directory, or serve's root)`);
  const data = parsed.data;
  const written = parsed.raw["language"];
  const language = (ALERT_LANGUAGES as readonly unknown[]).includes(written) ? { language: written as NonNullable<LoadedConfig["language"]> } : {};
  if (!data || problems.lines.length > 0 || naming.lines.length > 0) return { name, file, problems: problems.lines, nameProblems: naming.lines, ...language };
  const base = dirname(file);
  const mainBase = dirname(mainFile);
  const channels: ChannelEntry[] = data.channels
    ? data.channels.map((c, i) => ({ ...(typeof c === "string" ? { file: resolve(base, c) } : { file: resolve(base, c.file), over: withoutFile(c) }), namedAt: { file, path: `channels[${i}]` } }))
    : (main.channels ?? []).map((c, i) => ({ file: resolve(mainBase, c), namedAt: { file: mainFile, path: `channels[${i}]` } }));
  if (channels.length === 0) problems.add(file, "channels", "a list of channel files is needed (the main file names none for every shop)");
  const notify = data.notify ?? main.notify;
  // The shop's language speaks its alerts, unless its own notify section says another.
  const ownLanguage = isPlainObject(parsed.raw["notify"]) && "language" in parsed.raw["notify"];
  const mainBaseUrl = main.output.publicBaseUrl?.replace(/\/+$/, "");
  const spec: ShopSpec = {
    id: name,
    file,
    shop: data.shop,
    channels,
    offers: data.offers ? { config: data.offers, base } : main.offers ? { config: main.offers, base: mainBase } : undefined,
    outputDir: resolve(mainBase, main.output.dir, name),
    publicBaseUrl: data.output?.publicBaseUrl ?? (mainBaseUrl === undefined ? undefined : `${mainBaseUrl}/${name}`),
    destinations: data.destinations ?? main.destinations,
    status: data.serve?.status,
    notify: notify && data.language && !ownLanguage ? { ...notify, language: data.language } : notify,
    ...(data.language ? { language: data.language } : {}),
  };
  return { name, file, spec, problems: problems.lines, nameProblems: [] };
}

function withoutFile(entry: Record<string, unknown>): Record<string, unknown> {
  const { file: _, ...over } = entry;
  return over;
}

/**
 * `--shard i/n` as numbers: 1 <= i <= n. Digits past 2^53 - 1 would be rounded (9007199254740993
 * is read as 9007199254740992, so an i > n passed and the summary named another shard): refused.
 */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  const exact = Number.isSafeInteger(index) && Number.isSafeInteger(count);
  if (!(exact && count >= 1 && index >= 1 && index <= count)) throw new PharmafeedError("USAGE", `--shard ${text}: expected i/n with 1 <= i <= n <= ${Number.MAX_SAFE_INTEGER} (e.g. 1/4)`);
  return { index, count };
}

/** A `--shop` value that picomatch would read as a pattern (`a*`, `{a,b}`, `!a`): no shop's name. */
export function isShopPattern(value: string): boolean {
  const scan = picomatch.scan(value);
  return scan.isGlob || scan.negated;
}

/**
 * The shard (1..count) a shop belongs to: from a digest of its name, so a shop stays on its shard
 * (with its output folder, history and lock) when other shops are added or removed.
 */
export function shardOf(name: string, count: number): number {
  return (createHash("sha256").update(name).digest().readUInt32BE(0) % count) + 1;
}

/** The shops a run takes: those `--shops` names (names or globs) and `--shard` assigns; every shop without either. */
export function selectShops(file: string, names: readonly string[], select: { names?: readonly string[]; shard?: { index: number; count: number } } | undefined): Set<string> {
  let chosen = [...names];
  if (select?.names && select.names.length > 0) {
    const unmatched: string[] = [];
    const matchers = select.names.map((pattern) => ({ pattern, test: picomatch(pattern) }));
    chosen = chosen.filter((n) => matchers.some((m) => m.test(n)));
    for (const m of matchers) if (!names.some((n) => m.test(n))) unmatched.push(m.pattern);
    if (unmatched.length > 0) throw new PharmafeedError("CONFIG_INVALID", `${file}: no shop matches ${unmatched.map((p) => `"${p}"`).join(", ")} (--shop/--shops); shops: ${names.join(", ")}`, { context: { file } });
  }
  if (select?.shard) {
    const { index, count } = select.shard;
    chosen = chosen.filter((n) => shardOf(n, count) === index);
  }
  return new Set(chosen);
}
