/**
 * The functions that allocate most in a .heapprofile from bench/alloc-sampler.mjs (self bytes:
 * what the function itself allocated), per product when given the run's product count.
 *
 *   node bench/alloc-top.mjs <file.heapprofile> [products] [rows]
 */
import { readFileSync } from "node:fs";

const [file, products = "1", rows = "25"] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, "utf8"));
const bySelf = new Map();
let total = 0;
const walk = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || "(anonymous)"} ${url.replace(/.*\/(dist|node_modules|src)\//, "$1/")}:${lineNumber + 1}`;
  bySelf.set(key, (bySelf.get(key) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) walk(child);
};
walk(profile.head);
const per = (bytes) => `${(bytes / Number(products) / 1024).toFixed(2).padStart(8)} KB`;
console.log(`${(total / 2 ** 20).toFixed(0)} MB allocated in all,${per(total)} per product`);
for (const [key, bytes] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) console.log(`${per(bytes)}  ${key}`);
