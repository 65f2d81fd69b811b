/**
 * The values a push carries, read from the file the run published (what the feed says
 * now): price, sale price and availability per item id, for the built-in Google layouts
 * (google: one tag per line; google-tsv: a header row). Streamed line by line, so a
 * large feed is never held whole.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { decodeXML } from "entities";
import type { PushAttributes } from "../schemas.js";

export interface Values {
  price: string;
  salePrice: string;
  availability: string;
}

/** Layouts whose items this reader knows. */
export const PUSHABLE_LAYOUTS = ["google", "google-tsv"] as const;

const TAG = /^<g:(id|price|sale_price|availability)>(.*)<\/g:\1>$/;

export async function readFeedValues(file: string, layout: (typeof PUSHABLE_LAYOUTS)[number]): Promise<Map<string, Values>> {
  const out = new Map<string, Values>();
  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  if (layout === "google") {
    let id: string | undefined;
    let values: Values = { price: "", salePrice: "", availability: "" };
    for await (const raw of lines) {
      const line = raw.trim();
      if (line === "<item>") {
        id = undefined;
        values = { price: "", salePrice: "", availability: "" };
      } else if (line === "</item>" && id !== undefined) out.set(id, values);
      else {
        const m = TAG.exec(line);
        if (!m) continue;
        const text = decodeXML(m[2]!);
        if (m[1] === "id") id = text;
        else if (m[1] === "price") values.price = text;
        else if (m[1] === "sale_price") values.salePrice = text;
        else values.availability = text;
      }
    }
    return out;
  }
  let columns: Record<string, number> | undefined;
  for await (const line of lines) {
    const cells = line.split("\t");
    if (!columns) {
      columns = Object.fromEntries(cells.map((c, i) => [c, i]));
      continue;
    }
    const at = (name: string) => (columns![name] === undefined ? "" : (cells[columns![name]!] ?? ""));
    if (at("id") !== "") out.set(at("id"), { price: at("price"), salePrice: at("sale_price"), availability: at("availability") });
  }
  return out;
}

export const sameValues = (a: Values | undefined, b: Values | undefined): boolean =>
  a !== undefined && b !== undefined && a.price === b.price && a.salePrice === b.salePrice && a.availability === b.availability;

/** "12.50 EUR" -> micros as the API wants them, without floating point; undefined if unreadable. */
export function money(text: string): { amountMicros: string; currencyCode: string } | undefined {
  const m = /^(\d+)(?:\.(\d{1,6}))?\s+([A-Z]{3})$/.exec(text.trim());
  if (!m) return undefined;
  const micros = BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? "").padEnd(6, "0"));
  return { amountMicros: micros.toString(), currencyCode: m[3]! };
}

/**
 * The attributes of a push. A sale that ended sends the price as the sale price too: a
 * supplemental input cannot unset the file's sale price, and Google must not keep
 * showing a discount the shop no longer gives.
 */
export function attributesOf(v: Values): PushAttributes | undefined {
  const price = money(v.price);
  if (!price) return undefined;
  const sale = v.salePrice === "" ? price : money(v.salePrice);
  return { price, ...(sale ? { salePrice: sale } : {}), ...(v.availability ? { availability: v.availability.toUpperCase() } : {}) };
}
