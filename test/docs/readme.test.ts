/**
 * The examples of the README and the docs are what the program prints (issue 23.5: the summary's
 * figures and the explain example's product had drifted from the demo): one `demo` run (what
 * `npm start` runs) into a temp folder, then its summary against the README's block and
 * `explain` against the example of docs/commands.md.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, killAll, ROOT, runCli, type CliResult } from "../e2e/cli.js";
import { removeTemporaries, tempDir } from "../e2e/config.js";

let out: string;
let demo: CliResult;

beforeAll(async () => {
  ensureBuilt();
  out = join(await tempDir(), "out");
  demo = await runCli(["demo", "--output", out]);
  if (demo.code !== 0) throw new Error(`demo failed (${demo.code}): ${demo.stderr}`);
});

afterAll(async () => {
  killAll();
  await removeTemporaries();
});

/** The fenced block of `file` that follows `marker`. */
function blockAfter(file: string, marker: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const at = text.indexOf(marker);
  expect(at, `${marker} in ${file}`).toBeGreaterThan(-1);
  const block = /```\w*\n([\s\S]*?)```/.exec(text.slice(at))?.[1] ?? "";
  return block.trimEnd().split("\n");
}

describe("the README's summary", () => {
  it("is the first lines of what the demo prints, figure for figure", () => {
    const lines = blockAfter("README.md", "<!-- demo-summary:start");
    expect(lines.length).toBeGreaterThan(2);
    const printed = demo.stdout.split("\n");
    const header = printed.findIndex((line) => line.startsWith("channel "));
    expect(printed.slice(header, header + lines.length)).toEqual(lines);
  });
});

describe("the explain example of docs/commands.md", () => {
  it("is what explain prints for that product after the demo", async () => {
    const text = readFileSync(join(ROOT, "docs/commands.md"), "utf8");
    const at = text.indexOf("$ pharmafeed explain ");
    expect(at).toBeGreaterThan(-1);
    const lines = text.slice(at, text.indexOf("```", at)).trimEnd().split("\n");
    const command = lines[0]!.replace(/^\$ pharmafeed /, "").split(" ");
    const result = await runCli([...command, "--output", out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split("\n")).toEqual(lines.slice(1));
  });
});
