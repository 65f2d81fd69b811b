/**
 * What a reused row depends on besides its product and offer, as hashes kept in
 * the row cache's trailer: the code that maps and renders (every file of this
 * build), the run's reference lists, and each channel's settings and layout. A
 * difference in any of them and the next refresh maps every product again.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MapperSpec } from "../pipeline/channel-mapper.js";
import type { MappingContext } from "../mapping/context.js";
import { VERSION } from "../version.js";

const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("base64url");

let code: string | undefined;

/** The folder of an installed package as Node would find it from `fromDir` (node_modules upwards), or undefined. */
function packageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; ) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * The name and version of every package the running code can load, from `root`'s package.json
 * down its dependency tree, and Node's own version: a library's output reaches the rows
 * (htmlparser2's decoding, csv-stringify's quoting, entities, ...), so an upgrade of any of them
 * is other code even when pharmafeed's own files are the same. Read from the installed packages,
 * not the lockfile: what runs is what is installed (an npm install without the lockfile, a
 * hand-patched node_modules).
 */
export function dependencyFingerprint(root: string): string {
  return sha256(JSON.stringify([process.version, dependencyVersions(root)]));
}

/** "path in the tree name@version" of every package the code at `root` can load, sorted. */
export function dependencyVersions(root: string): string[] {
  const seen = new Map<string, string>();
  const visit = (dir: string, isRoot: boolean): void => {
    let pkg: { name?: string; version?: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    try {
      pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as typeof pkg;
    } catch {
      return;
    }
    if (!isRoot) {
      const key = `${dir.slice(root.length)}`;
      if (seen.has(key)) return;
      seen.set(key, `${pkg.name ?? "?"}@${pkg.version ?? "?"}`);
    }
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }).sort()) {
      const found = packageDir(name, dir);
      if (found !== undefined) visit(found, false);
    }
  };
  visit(root, true);
  return [...seen.entries()].map(([path, id]) => `${path} ${id}`).sort();
}

/**
 * Every file of the running build (dist/, or src/ when run from the sources) and the
 * built-in templates, hashed once per process (~200 files, a few ms), and the installed
 * dependencies (dependencyFingerprint): an upgrade of pharmafeed or of a library, or a
 * checkout of other code under the same version number, is other code.
 */
export function codeFingerprint(): string {
  if (code !== undefined) return code;
  const hash = createHash("sha256").update(VERSION);
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (/\.(js|ts|json|mustache|xml|csv|txt)$/.test(name)) hash.update(path.slice(root.length)).update(readFileSync(path));
      else if (!name.includes(".")) walk(path);
    }
  };
  const root = fileURLToPath(new URL("../../", import.meta.url));
  walk(fileURLToPath(new URL("../", import.meta.url)));
  walk(join(root, "templates"));
  hash.update(dependencyFingerprint(root.replace(/[\\/]$/, "")));
  code = hash.digest("base64url");
  return code;
}

/** The categories, brands and price unit mapping reads. */
export function referenceFingerprint(context: MappingContext): string {
  return sha256(JSON.stringify([[...context.categories.values()], [...context.brands.values()], context.priceUnit]));
}

/** A channel's settings, layout and format, and how its file is written (not its header's time). */
export function channelFingerprint(spec: MapperSpec, gzip: boolean): string {
  const { generatedAt: _, ...meta } = spec.meta;
  return sha256(JSON.stringify([spec.name, spec.mapping, spec.layout, spec.format, meta, gzip]));
}
