/**
 * What a reused row depends on besides its product and offer, as hashes kept in
 * the row cache's trailer: the code that maps and renders (every file of this
 * build), the run's reference lists, and each channel's settings and layout. A
 * difference in any of them and the next refresh maps every product again.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MapperSpec } from "../pipeline/channel-mapper.js";
import type { MappingContext } from "../mapping/context.js";
import { VERSION } from "../version.js";

const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("base64url");

let code: string | undefined;

/**
 * Every file of the running build (dist/, or src/ when run from the sources) and the
 * built-in templates, hashed once per process (~200 files, a few ms): an upgrade, or a
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
