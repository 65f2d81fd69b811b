/**
 * Independent readers for what the writers produce: fast-xml-parser (validator
 * and parser), csv-parse in strict mode, JSON.parse. Tests never check output
 * with the code that wrote it.
 */
import { parse as parseCsv } from "csv-parse/sync";
import { XMLParser, XMLValidator } from "fast-xml-parser";

export type Row = Record<string, unknown>;

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  // Needed to decode numeric references (&#13;); named HTML entities are refused below.
  htmlEntities: true,
  isArray: (name) => ["item", "product", "g:additional_image_link"].includes(name),
});

function asArray(value: unknown): Row[] {
  return Array.isArray(value) ? (value as Row[]) : value === undefined || value === "" ? [] : [value as Row];
}

export function readXml(text: string): { root: Row; items: Row[] } {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`invalid XML: ${valid.err.msg} at line ${valid.err.line}`);
  // The validator lets HTML entities such as &nbsp; through; XML without a DTD knows only five.
  const stray = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)[^;\s]{0,10};?/.exec(text.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ""));
  if (stray) throw new Error(`entity not defined in XML: ${stray[0]}`);
  const root = xmlParser.parse(text) as Row;
  const rss = root["rss"] as Row | undefined;
  if (rss) return { root, items: asArray((rss["channel"] as Row)["item"]) };
  const products = (root["products"] ?? root["productfeed"]) as Row | string | undefined;
  if (products === undefined) throw new Error("unknown XML root");
  return { root, items: typeof products === "string" ? [] : asArray(products["product"]) };
}

export function readCsv(text: string, delimiter = ","): Row[] {
  return parseCsv(text.replace(/^\uFEFF/, ""), { columns: true, delimiter, relax_quotes: false, relax_column_count: false, bom: false }) as Row[];
}

/** Tab-separated without quoting: a quote is an ordinary character. */
export function readTsv(text: string): Row[] {
  return parseCsv(text, { columns: true, delimiter: "\t", quote: false, relax_column_count: false, record_delimiter: "\n" }) as Row[];
}

export function readJson(text: string): Row[] {
  const value = JSON.parse(text) as unknown;
  if (!Array.isArray(value)) throw new Error("JSON feed is not an array");
  return value as Row[];
}

export function readNdjson(text: string): Row[] {
  return text === "" ? [] : text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Row);
}
