/**
 * htmlToText on hostile descriptions (issue 15, item 4): milliseconds per shape at
 * 256 KB, 512 KB and 1 MB, so a quadratic cost shows as a 4x step per doubling, beside
 * the library users would pick on the same input (htmlparser2, text events collected),
 * median of BENCH_RUNS runs. (A regex tag strip is no baseline: it is itself quadratic
 * on unterminated tags.)
 *
 *   npx tsx bench/html-text.ts            (BENCH_RUNS=5)
 *
 * Before the fix, 1 MB of "<script>x</script>" took about 45 s (a lower-casing of the
 * whole input per <script>/<style>/<title> tag); the goal is under one second.
 */
import { Parser } from "htmlparser2";
import { htmlToText } from "../src/mapping/html-text.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const KB = 1024;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function fill(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

function time(f: () => unknown): number {
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    f();
    runs.push(performance.now() - t);
  }
  return median(runs);
}

const shapes: Record<string, (size: number) => string> = {
  "script elements": (n) => fill("<script>x</script>", n),
  "style elements (upper case)": (n) => fill("<STYLE>a{}</STYLE>", n),
  "nested unterminated script": (n) => "<script>".repeat(Math.floor(n / 16)) + "</scrip".repeat(Math.floor(n / 14)),
  "unterminated tags and quotes": (n) => fill('<a x=" <b <!-- <![CDATA[ <', n),
  "paragraphs of text": (n) => fill("<p>Crème &amp; solaire <b>SPF50</b></p>", n),
};

console.log(`shape                          size     htmlToText ms   htmlparser2 ms`);
for (const [name, make] of Object.entries(shapes)) {
  for (const size of [256 * KB, 512 * KB, 1024 * KB]) {
    const html = make(size);
    const ours = time(() => htmlToText(html));
    const parsed = time(() => {
      let text = "";
      const parser = new Parser({ ontext: (t) => (text += t) });
      parser.end(html);
      return text;
    });
    console.log(`${name.padEnd(30)} ${String(size / KB).padStart(5)} KB ${ours.toFixed(1).padStart(12)} ${parsed.toFixed(1).padStart(16)}`);
  }
}
