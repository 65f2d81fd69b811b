/**
 * What the shops tests compare between two output trees: each shop's feeds and reports, byte for
 * byte but for the generation times (two runs never share them).
 */
import { join } from "node:path";
import { expect } from "vitest";
import { snapshot } from "../e2e/feeds.js";

/** The files each test shop publishes (its two channels) and their reports. */
const FILES = ["google-fr.xml", "csv-fr.csv", "reports/google-fr.csv", "reports/csv-fr.csv"];

/** The feeds' generation time differs between two runs; nothing else may. */
export function stripDates(text: string): string {
  return text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<date>").replace(/\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d (GMT|\+0000)/g, "<date>");
}

/** Every shop of `shops` published in `theirs` (an output dir) what it published in `mine`. */
export async function expectSamePublished(shops: readonly string[], mine: string, theirs: string): Promise<void> {
  for (const shop of shops) {
    const a = await snapshot(join(mine, shop));
    const b = await snapshot(join(theirs, shop));
    for (const file of FILES) {
      expect(b.get(file), `${shop}/${file}`).toBeDefined();
      expect(stripDates(b.get(file)!), `${shop}/${file}`).toBe(stripDates(a.get(file)!));
    }
  }
}
