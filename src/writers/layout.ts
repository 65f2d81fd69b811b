/**
 * A layout is a folder under templates/ holding `layout.json` and, for XML, the
 * Handlebars files it names. Column formats (CSV, TSV, JSON) give one Handlebars
 * expression per column; the writer escapes the rendered cell once.
 */
import { z } from "zod";

export const Column = z
  .object({
    /** Column header (CSV/TSV) or key (JSON). */
    header: z.string().min(1),
    /** Handlebars expression over the FeedItem, e.g. `{{price.text}}`. */
    value: z.string(),
  })
  .strict();
export type Column = z.infer<typeof Column>;

const columns = z.array(Column).min(1);

export const XmlLayout = z
  .object({
    format: z.literal("xml"),
    /** Template files, relative to the layout folder. */
    header: z.string().min(1),
    item: z.string().min(1),
    footer: z.string().min(1),
  })
  .strict();

export const CsvLayout = z
  .object({
    format: z.literal("csv"),
    delimiter: z.string().length(1).default(","),
    /** A UTF-8 byte order mark, for spreadsheet users. */
    bom: z.boolean().default(false),
    columns,
  })
  .strict();

export const TsvLayout = z.object({ format: z.literal("tsv"), columns }).strict();

export const JsonLayout = z
  .object({
    format: z.enum(["json", "ndjson"]),
    /** Without columns every item is written whole, as the FeedItem. */
    columns: columns.optional(),
  })
  .strict();

export const LayoutSpec = z.discriminatedUnion("format", [XmlLayout, CsvLayout, TsvLayout, JsonLayout]);
export type LayoutSpec = z.infer<typeof LayoutSpec>;
export type OutputFormat = LayoutSpec["format"];

/** An XML layout with its template texts loaded. */
export interface LoadedXmlTemplates {
  header: string;
  item: string;
  footer: string;
}

/** What a writer factory needs: the layout, the XML templates' texts, where it came from. */
export interface LoadedLayout {
  spec: LayoutSpec;
  templates?: LoadedXmlTemplates;
  /** Folder or name, for error messages. */
  source: string;
}
