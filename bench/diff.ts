/**
 * `pharmafeed diff` at scale: two kept item sheets (src/history/sheet.ts) of N items each, the
 * newer one with 1 % of the items removed, 1 % added, 5 % repriced and 2 % out of stock, compared
 * by diffSheets; beside it, in the same run, the floor: reading both sheets' lines (gunzip, split)
 * without comparing. Each measurement in a fresh process (its peak RSS is its own), the two sides
 * interleaved; medians of --runs.
 *
 *   npx tsx bench/diff.ts [--items 100000,1000000] [--runs 3]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { diffSheets } from "../src/history/diff.js";
import { readSheetLines, sheetPath } from "../src/history/sheet.js";
import { keepSheet } from "../src/history/store.js";
import { flag } from "./common.js";

const FROM = "f".repeat(64);
const TO = "e".repeat(64);

/** A sheet line as the recorder writes it: id, codes, name, price, currency, availability, hashes. */
function line(i: number, cents: number, availability: string): string {
  const code = String(5400000000000 + i).padStart(14, "0");
  return JSON.stringify([`M${i.toString(16).padStart(9, "0")}`, [code], `Produit de parapharmacie numéro ${i} 150 ml`, cents, "EUR", availability, (i * 2654435761) >>> 0, (i * 40503) >>> 0, (i * 9973) >>> 0]);
}

async function writeSheets(dir: string, items: number): Promise<void> {
  const from: string[] = [];
  const to: string[] = [];
  for (let i = 0; i < items; i++) {
    const cents = 500 + (i % 5000);
    from.push(line(i, cents, "in_stock"));
    if (i % 100 === 0) continue; // 1 % removed
    to.push(line(i, i % 20 === 1 ? cents + 100 : cents, i % 50 === 3 ? "out_of_stock" : "in_stock"));
  }
  for (let i = items; i < items + items / 100; i++) to.push(line(i, 999, "in_stock")); // 1 % added
  for (const [sha, lines] of [[FROM, from], [TO, to]] as const) {
    const file = join(dir, `${sha}.plain`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    await keepSheet(dir, sha, { file, items: lines.length });
    rmSync(file);
  }
}

async function child(mode: string, dir: string): Promise<void> {
  const started = performance.now();
  let summary: string;
  if (mode === "diff") {
    const d = await diffSheets((onLine) => readSheetLines(dir, FROM, onLine), (onLine) => readSheetLines(dir, TO, onLine));
    summary = `+${d.added.length} -${d.removed.length} prices ${d.prices.changed} availability ${d.availability.changed}`;
  } else {
    let n = 0;
    await readSheetLines(dir, FROM, () => n++);
    await readSheetLines(dir, TO, () => n++);
    summary = `${n} lines read`;
  }
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ ms, rssMb: process.resourceUsage().maxRSS / 1024, summary }));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const childMode = flag("child", "");
  if (childMode !== "") return child(childMode, flag("dir", ""));
  const sizes = flag("items", "100000,1000000").split(",").map(Number);
  const runs = Number(flag("runs", "3"));
  const self = fileURLToPath(import.meta.url);
  console.log(`diff of two kept item sheets (1 % removed, 1 % added, 5 % repriced, 2 % out of stock); medians of ${runs} runs, each in a fresh process; Node ${process.version}`);
  for (const items of sizes) {
    const dir = mkdtempSync(join(tmpdir(), "pf-bench-diff-"));
    try {
      await writeSheets(dir, items);
      const kept = statSync(sheetPath(dir, FROM)).size;
      const results: Record<string, { ms: number[]; rss: number[]; summary: string }> = { read: { ms: [], rss: [], summary: "" }, diff: { ms: [], rss: [], summary: "" } };
      for (let r = 0; r < runs; r++) {
        for (const mode of ["read", "diff"]) {
          const run = spawnSync(process.execPath, ["--import", "tsx", self, "--child", mode, "--dir", dir], { encoding: "utf8", maxBuffer: 1 << 20 });
          if (run.status !== 0) throw new Error(run.stderr);
          const out = JSON.parse(run.stdout) as { ms: number; rssMb: number; summary: string };
          results[mode]!.ms.push(out.ms);
          results[mode]!.rss.push(out.rssMb);
          results[mode]!.summary = out.summary;
        }
      }
      const read = results["read"]!;
      const diff = results["diff"]!;
      console.log(`\n${items.toLocaleString("en")} items (kept sheet ${(kept / 2 ** 20).toFixed(1)} MB, ${(kept / items).toFixed(0)} bytes per item)`);
      console.log(`  read both sheets' lines (floor): ${(median(read.ms) / 1000).toFixed(2)} s, peak RSS ${median(read.rss).toFixed(0)} MB`);
      console.log(`  diff:                     ${(median(diff.ms) / 1000).toFixed(2)} s (${(median(diff.ms) / median(read.ms)).toFixed(2)}x the floor), peak RSS ${median(diff.rss).toFixed(0)} MB; ${diff.summary}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

await main();
