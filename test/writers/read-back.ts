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

/**
 * Tab-separated without quoting (a quote is an ordinary character), or with `quoted`
 * as Google's data sources with quoted fields read it (RFC 4180 quotes, strict).
 */
export function readTsv(text: string, options: { quoted?: boolean } = {}): Row[] {
  return parseCsv(text, { columns: true, delimiter: "\t", quote: options.quoted === true ? '"' : false, relax_column_count: false, record_delimiter: "\n" }) as Row[];
}

export function readJson(text: string): Row[] {
  const value = JSON.parse(text) as unknown;
  if (!Array.isArray(value)) throw new Error("JSON feed is not an array");
  return value as Row[];
}

export function readNdjson(text: string): Row[] {
  return text === "" ? [] : text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Row);
}

/** Every image URL of a row of a built-in layout, in order, split as its channel splits list fields. */
export function imageUrls(layout: string, row: Row): string[] {
  const s = (v: unknown) => (typeof v === "string" ? v : "");
  switch (layout) {
    case "google":
    case "microsoft":
    case "meta-xml":
      return [s(row["g:image_link"]), ...((row["g:additional_image_link"] as unknown[] | undefined) ?? []).map(s)];
    case "google-tsv":
    case "meta":
      return [s(row["image_link"]), ...s(row["additional_image_link"]).split(",")].filter((u) => u !== "");
    case "idealo":
    case "idealo-de":
      return s(row["imageUrl"]).split(";");
    case "billiger":
      return [s(row["image"]), ...s(row["images"]).split(",")].filter((u) => u !== "");
    case "medizinfuchs":
      return [];
    case "kelkoo":
      return [s(row["image-url"])];
    case "beslist":
      return [s(row["imagelink"]), ...Object.keys(row).filter((k) => k.startsWith("imagelink_")).sort().map((k) => s(row[k]))];
    case "generic-csv":
      return [s(row["image_link"]), ...s(row["additional_image_links"]).split(" ")].filter((u) => u !== "");
    default:
      return [s(row["imageLink"]), ...((row["additionalImageLinks"] as unknown[] | undefined) ?? []).map(s)];
  }
}
