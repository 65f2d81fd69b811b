/**
 * Before a feed is renamed into place, its header, footer and first rows are
 * read back with a real parser of the format. Escaping is centralised in the
 * writers, so a broken file can only come from a layout; a sample catches that
 * without reading a multi-gigabyte file back into memory.
 */
import type { LayoutSpec } from "../writers/layout.js";

export const SAMPLE_ROWS = 50;

/**
 * undefined when the sample parses; else what is wrong. The parsers are loaded
 * here, at the end of a run: worker threads import this module for SAMPLE_ROWS
 * and should not carry them (~10 MB each), nor the main thread all the stream.
 */
export async function checkSample(spec: LayoutSpec, header: string, rows: readonly string[], footer: string, separator = ""): Promise<string | undefined> {
  const text = header + rows.join(separator) + footer;
  try {
    switch (spec.format) {
      case "xml": {
        const { XMLValidator } = await import("fast-xml-parser");
        const result = XMLValidator.validate(text);
        return result === true ? undefined : `not well-formed XML: ${result.err.msg} (line ${result.err.line} of the sample)`;
      }
      case "csv":
      case "tsv": {
        const { parse: parseCsv } = await import("csv-parse/sync");
        const records = parseCsv(text.replace(/^\uFEFF/, ""), {
          delimiter: spec.format === "tsv" ? "\t" : spec.delimiter,
          quote: spec.format === "tsv" ? false : '"',
          relax_column_count: false,
        }) as string[][];
        return records.length === rows.length + 1 ? undefined : `expected ${rows.length + 1} records in the sample, read ${records.length}`;
      }
      case "json": {
        const value = JSON.parse(text) as unknown;
        return Array.isArray(value) && value.length === rows.length ? undefined : "not a JSON array of the items";
      }
      case "ndjson":
        rows.forEach((row) => JSON.parse(row));
        return undefined;
    }
  } catch (error) {
    return (error as Error).message;
  }
}
