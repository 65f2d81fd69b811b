/**
 * A refresh reuses a row until its horizon (src/mapping/clock.ts): only comparisons made
 * through the clock are seen. This keeps every other way to the time out of the code that
 * renders rows and report lines, so that a new time-dependent rule cannot bypass it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = fileURLToPath(new URL("../../src/", import.meta.url));
const RENDERING = ["mapping", "writers"];
const ALSO = ["pipeline/channel-mapper.ts", "publish/exclusion-report.ts"];
// The one place that reads the time: the run's clock is made from it.
const ALLOWED = new Set(["mapping/context.ts"]);

function files(): string[] {
  const found = RENDERING.flatMap((dir) => readdirSync(join(src, dir)).filter((f) => f.endsWith(".ts")).map((f) => `${dir}/${f}`));
  return [...found, ...ALSO].filter((f) => !ALLOWED.has(f));
}

describe("the code that renders rows reads the time only through the run's clock", () => {
  it("has no Date.now(), new Date(), performance.now() or process.hrtime outside mapping/context.ts", () => {
    const offenders = files().filter((f) => /Date\.now\(|new Date\(\s*\)|performance\.now\(|process\.hrtime/.test(readFileSync(join(src, f), "utf8")));
    expect(offenders).toEqual([]);
    expect(files().length).toBeGreaterThan(40);
  });
});
