/** The one catalogue request of `explain` for an id or code the last run never received. */
import type { CatalogueClient } from "../catalogue/client.js";
import type { ProductFilter } from "../catalogue/query/product-filter.js";
import type { Product } from "../catalogue/schemas/product.js";

/** The widths of the eanGtinN fields, each of which takes exactly that many digits. */
const WIDTHS = [8, 12, 13, 14] as const;

/**
 * The code in each GTIN width it can be written in: its digits padded to 14 (the GTIN-14 form),
 * then every narrower width whose leading digits it drops are zeros. "12345670" (GTIN-8) is
 * also "0000012345670" (13) and "00000012345670" (14); a 13-digit code starting with 1 has
 * no 8- or 12-digit form. The catalogue may hold the code in any of them.
 */
export function codeForms(digits: string): Map<number, string> {
  const key = digits.padStart(14, "0");
  const forms = new Map<number, string>();
  for (const width of WIDTHS) {
    if (/^0*$/.test(key.slice(0, 14 - width))) forms.set(width, key.slice(14 - width));
  }
  return forms;
}

/**
 * The filter for a query: its id, and for a code of 8 to 14 digits each code field asked only
 * in a form it can hold (eanGtin13 only with 13 digits, and so on: the request validator
 * refuses anything else, rightly). ean and the deprecated gtin take codes of any width: they
 * are asked with every form; cip13 and acl13 (13-digit French codes) with the 13-digit form.
 */
export function productFilterFor(query: string): ProductFilter {
  if (!/^\d{8,14}$/.test(query)) return { id: [query] };
  const forms = codeForms(query);
  const every = [...new Set([query, ...forms.values()])];
  const or: ProductFilter[] = [{ id: [query] }, { ean: every }, { gtin: every }];
  for (const width of WIDTHS) {
    const form = forms.get(width);
    if (form !== undefined) or.push({ [`eanGtin${width}`]: [form] });
  }
  const thirteen = forms.get(13);
  if (thirteen !== undefined) or.push({ cip13: [thirteen] }, { acl13: [thirteen] });
  return { or };
}

/** Whatever its status (no status filter): the point is to say why the run's filter left it out. */
export async function fetchProduct(client: CatalogueClient, query: string): Promise<Product | undefined> {
  for await (const page of client.queryAll("products", { filter: productFilterFor(query), sorting: { id: "ASC" }, pageSize: 10 })) return page.results[0];
  return undefined;
}
