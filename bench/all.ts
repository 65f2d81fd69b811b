/**
 * `npm run bench`: every benchmark, one after the other, each in its own process
 * (so that one's memory and JIT state do not colour the next). Extra arguments
 * select benchmarks by name: `npm run bench -- client generate`.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ALL = ["sandbox", "client", "mapping", "html-text", "generate", "serve", "images", "offers", "refresh", "shops"];
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const names = wanted.length > 0 ? wanted : ALL;
let failed = 0;
for (const name of names) {
  const file = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  if (!existsSync(file)) {
    console.log(`\n== ${name}: no bench/${name}.ts`);
    continue;
  }
  console.log(`\n== bench/${name}.ts`);
  const run = spawnSync(process.execPath, ["--import", "tsx", file], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
