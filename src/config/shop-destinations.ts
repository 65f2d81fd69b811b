/**
 * Destinations in a config of many shops (docs/shops.md, "Destinations"). A destination the shops
 * inherit (the main file's, or a channel file's that several shops list) sends every shop's feeds
 * to the same remote folder under the same names: each upload replaced the last shop's, and each
 * shop's manifest still said its own file was there. So such a destination must say where each
 * shop's feeds go: `{shop}` in its folder (`dir`, an S3 `prefix`) is the shop's name. One it does
 * not, shared by two shops or more, is refused when the config loads.
 */
import { readJsonFile } from "../core/json-file.js";
import type { DestinationConfig } from "../destinations/settings.js";
import { isPlainObject, type Problems } from "./parse.js";
import type { ShopEntry } from "./shops.js";

export const SHOP_PLACEHOLDER = "{shop}";

/** The field holding a destination's remote folder. */
function folderField(d: { kind?: unknown }): "prefix" | "dir" {
  return d.kind === "s3" ? "prefix" : "dir";
}

function folderOf(d: Record<string, unknown>): string {
  const value = d[folderField(d)];
  return typeof value === "string" ? value : "";
}

/** `{shop}` in each destination's folder as the shop's name; a config of one shop has none to give. */
export function forShop(destinations: readonly DestinationConfig[], shop: string | undefined, file: string, problems: Problems, at = "destinations"): DestinationConfig[] {
  return destinations.map((d, i) => {
    const field = folderField(d);
    const folder = field === "prefix" ? (d as { prefix: string }).prefix : (d as { dir: string }).dir;
    if (!folder.includes(SHOP_PLACEHOLDER)) return d;
    if (shop === undefined) {
      problems.add(file, `${at}[${i}].${field}`, `${SHOP_PLACEHOLDER} is a shop's name in a config of shops (docs/shops.md); this config is one shop`);
      return d;
    }
    return { ...d, [field]: folder.split(SHOP_PLACEHOLDER).join(shop) } as DestinationConfig;
  });
}

/** The destinations a channel file writes itself, as written (undefined: it has none, or cannot be read; its own load says why). */
async function ownDestinations(file: string): Promise<Record<string, unknown>[] | undefined> {
  const json = await readJsonFile(file).catch(() => undefined);
  const list = isPlainObject(json) ? json["destinations"] : undefined;
  return Array.isArray(list) ? list.filter(isPlainObject) : undefined;
}

/**
 * Destinations two shops or more inherit without `{shop}` in their folder: the main file's (for
 * the shops whose files have no `destinations`), and a channel file's own (for the shops that list
 * it without destinations of their own over it). Each one is the file's problem, naming the shops.
 */
export async function sharedDestinationProblems(mainFile: string, mainDestinations: readonly DestinationConfig[] | undefined, entries: readonly ShopEntry[], problems: Problems): Promise<void> {
  const specs = entries.flatMap((e) => (e.spec ? [{ name: e.name, spec: e.spec, file: e.file }] : []));
  const report = (file: string, list: readonly Record<string, unknown>[], shops: readonly string[]) => {
    if (shops.length < 2) return;
    list.forEach((d, i) => {
      if (folderOf(d).includes(SHOP_PLACEHOLDER)) return;
      const field = folderField(d);
      problems.add(
        file,
        `destinations[${i}].${field}`,
        `shops ${shops.join(", ")} would all upload their feeds to this one folder, each replacing the last one's files: put ${SHOP_PLACEHOLDER} in it ("${field}": "${joinShop(folderOf(d))}"), or give each shop its own destinations`,
      );
    });
  };
  // The main file's list: every shop whose file does not replace it (its channel files may still have their own, checked below).
  // A shop file without `destinations` gets the main file's very list (config/shops.ts).
  if (mainDestinations && mainDestinations.length > 0) {
    const heirs = specs.filter((s) => s.spec.destinations === mainDestinations).map((s) => s.name);
    report(mainFile, mainDestinations as unknown as Record<string, unknown>[], heirs);
  }
  // A channel file listed by several shops, under the same file name (a shop may rename its copy with `file`).
  const byChannel = new Map<string, { file: string; shops: string[] }>();
  for (const { name, spec } of specs) {
    for (const entry of spec.channels) {
      if (entry.over && "destinations" in entry.over) continue;
      const key = `${entry.file}\u0000${typeof entry.over?.["file"] === "string" ? entry.over["file"] : ""}`;
      const group = byChannel.get(key) ?? { file: entry.file, shops: [] };
      group.shops.push(name);
      byChannel.set(key, group);
    }
  }
  for (const { file, shops } of byChannel.values()) {
    if (shops.length < 2) continue;
    const own = await ownDestinations(file);
    if (own) report(file, own, shops);
  }
}

/** The folder with `{shop}` added as its last part: what the refusal suggests. */
function joinShop(folder: string): string {
  if (folder === "" || folder === ".") return SHOP_PLACEHOLDER;
  return `${folder.replace(/\/+$/, "")}/${SHOP_PLACEHOLDER}`;
}
