/**
 * The offer id under which Google knows a product: the feed's item id, which the
 * channel's `id.template` made from the catalogue product (`{{id}}` by default, but
 * `PF-{{id}}`, `{{id}}-fr` or `{{gtin}}` as well). explain asks Google's store by it.
 *
 *   a product in the feed ─> the id of the very item written (the row explain read: <g:id>, or the TSV's id column)
 *   else a template that only wraps {{id}} in fixed text ─> that text around the catalogue id
 *   a query that is a feed id ─> the catalogue id inside the same fixed text (explain by the feed id)
 *
 * A template built of other fields ({{gtin}}, {{brand}}-{{id}}) cannot be turned back
 * from a feed id; a GTIN or CIP13 is found by explain as a code anyway.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { decodeXML } from "entities";

/** The fixed text around a template's only variable, when that variable is `id`. */
export function wrapOf(template: string): { before: string; after: string } | undefined {
  const m = /^([^{}]*)\{\{\{?\s*id\s*\}?\}\}([^{}]*)$/.exec(template);
  return m ? { before: m[1]!, after: m[2]! } : undefined;
}

/** The feed id a template gives a catalogue id, when the template only wraps {{id}} (rendered ids are trimmed). */
export function renderedId(template: string, catalogueId: string): string | undefined {
  const wrap = wrapOf(template);
  return wrap ? `${wrap.before}${catalogueId}${wrap.after}`.trim() : undefined;
}

/** Catalogue ids a feed id may stand for, one per template that wraps {{id}} (in order, without repeats). */
export function catalogueIdsOf(feedId: string, templates: readonly string[]): string[] {
  const out = new Set<string>();
  for (const template of templates) {
    const wrap = wrapOf(template);
    if (!wrap) continue;
    const before = wrap.before.trimStart();
    const after = wrap.after.trimEnd();
    if (feedId.length > before.length + after.length && feedId.startsWith(before) && feedId.endsWith(after)) out.add(feedId.slice(before.length, feedId.length - after.length));
  }
  return [...out];
}

/** The first line of a file (a TSV's header), read without reading the file. */
function firstLine(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buffer = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.toString("utf8", 0, n);
    const end = text.indexOf("\n");
    return end < 0 ? undefined : text.slice(0, end).replace(/\r$/, "");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The item id of a row as written: a Google XML item's <g:id>, or a google-tsv line's `id` column. */
export function idOfRow(row: string, outputDir: string, file: string | undefined): string | undefined {
  const xml = /<g:id>([^<]*)<\/g:id>/.exec(row);
  if (xml) return decodeXML(xml[1]!).trim();
  if (!row.includes("\t") || file === undefined) return undefined;
  const header = firstLine(join(outputDir, file))?.split("\t");
  const at = header?.indexOf("id") ?? -1;
  return at < 0 ? undefined : row.replace(/\r?\n$/, "").split("\t")[at];
}
