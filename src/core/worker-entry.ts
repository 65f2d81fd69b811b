/**
 * How to start a worker thread from this package. A .js worker (dist) starts
 * as is. A .ts worker (src, under tsx or vitest) needs a TypeScript loader in
 * its own thread: on Node 20 neither --import in execArgv nor the main thread's
 * hooks reach a worker, so a small bootstrap registers tsx's ESM hooks, then
 * imports it.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

export function workerEntry(url: URL): { entry: string | URL; eval: boolean } {
  if (!url.pathname.endsWith(".ts")) return { entry: url, eval: false };
  // tsx's package exports point "." at dist/loader.mjs; its ESM API sits beside it.
  const tsxApi = new URL("./esm/api/index.mjs", pathToFileURL(createRequire(import.meta.url).resolve("tsx"))).href;
  const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return { entry: code, eval: true };
}

/** A worker module beside `base` (import.meta.url of its caller), in the caller's own flavour (.ts under tsx/vitest, .js in dist). */
export function siblingUrl(relative: string, base: string): URL {
  return new URL(`${relative}${base.endsWith(".ts") ? ".ts" : ".js"}`, base);
}
