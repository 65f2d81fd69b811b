/**
 * What the wire schemas' check-only twins (src/catalogue/schemas/checker.ts) buy over zod
 * itself, on the same product lines of the sandbox generator, in one run:
 *
 *   JSON.parse alone  |  JSON.parse + zod safeParse  |  JSON.parse + the compiled checker
 *
 *   npx tsx bench/checker.ts [--products 20000] [--runs 7]
 *
 * Timed in CPU seconds of this process (robust to other work on the machine); medians of the runs.
 * checker.ts compiles code with `new Function` from the schema's definition: it stays only while
 * this shows a gain worth it.
 */
import { Product } from "../src/catalogue/schemas/product.js";
import { compileChecker } from "../src/catalogue/schemas/checker.js";
import { createCatalogue } from "../src/sandbox/index.js";
import { flag } from "./common.js";

const N = Number(flag("products", "20000"));
const RUNS = Number(flag("runs", "7"));
const catalogue = createCatalogue({ seed: 7, products: N, assetBaseUrl: "https://assets.sandbox.example" });
const lines: string[] = [];
for (let i = 0; i < catalogue.total; i++) lines.push(JSON.stringify(catalogue.product(i)));
const check = compileChecker(Product);
if (!check) throw new Error("the product schema has no checker");

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time(label: string, each: (line: string) => boolean): { label: string; seconds: number; accepted: number } {
  const seconds: number[] = [];
  let accepted = 0;
  for (let r = 0; r < RUNS; r++) {
    accepted = 0;
    const start = cpu();
    for (const line of lines) if (each(line)) accepted++;
    seconds.push(cpu() - start);
  }
  return { label, seconds: median(seconds), accepted };
}

const parse = time("JSON.parse", (line) => JSON.parse(line) !== null);
const zod = time("JSON.parse + zod safeParse", (line) => Product.safeParse(JSON.parse(line)).success);
const checker = time("JSON.parse + checker", (line) => check(JSON.parse(line)));
if (zod.accepted !== checker.accepted) throw new Error(`zod accepted ${zod.accepted}, the checker ${checker.accepted}`);
console.log(`${lines.length} product lines, median of ${RUNS} runs (CPU seconds)`);
for (const r of [parse, zod, checker]) {
  const us = (r.seconds / lines.length) * 1e6;
  console.log(`${r.label.padEnd(30)} ${us.toFixed(1).padStart(7)} us/line  ${(lines.length / r.seconds).toFixed(0).padStart(8)} lines/s`);
}
const validate = (r: { seconds: number }) => r.seconds - parse.seconds;
console.log(`validation alone: zod ${((validate(zod) / lines.length) * 1e6).toFixed(1)} us, checker ${((validate(checker) / lines.length) * 1e6).toFixed(1)} us per line: ${(validate(zod) / validate(checker)).toFixed(1)}x`);
