/** products.list / products.get and productInputs.insert / delete of the fake. */
import { parseProductSegment, productSegment } from "../names.js";
import { googleError, ok, pageSize, pageToken, readPageToken, type Reply } from "./reply.js";
import type { FakeAccount, FakeInput, FakeProduct } from "./state.js";

/** productAttributes names pharmafeed may send (v1: `gtins` is a list; `gtin` is unknown). */
const KNOWN_ATTRIBUTES = new Set(["title", "description", "link", "imageLink", "additionalImageLinks", "availability", "price", "salePrice", "salePriceEffectiveDate", "gtins", "brand", "mpn", "condition", "googleProductCategory", "productTypes", "identifierExists", "shipping", "unitPricingMeasure", "unitPricingBaseMeasure", "expirationDate"]);
const AVAILABILITY = new Set(["IN_STOCK", "OUT_OF_STOCK", "PREORDER", "BACKORDER"]);

const keyOf = (p: { contentLanguage: string; feedLabel: string; offerId: string }): string => `${p.contentLanguage}~${p.feedLabel}~${p.offerId}`;

/**
 * The product as Google shows it: per attribute, the first source of the primary source's
 * default rule that has it. A supplemental source not in the rule changes nothing, as at Google.
 */
function attributesOf(account: FakeAccount, p: FakeProduct): Record<string, unknown> {
  const rule = account.primary.defaultRule ?? [{ self: true }];
  const layers = rule.map((ref) => (ref.self ? p.productAttributes : (account.inputs.get(ref.supplementalDataSourceName ?? "")?.get(keyOf(p))?.productAttributes ?? {})));
  return Object.assign({}, ...layers.reverse()) as Record<string, unknown>;
}

function view(account: FakeAccount, p: FakeProduct): Record<string, unknown> {
  const s = p.status;
  return {
    name: `accounts/${account.id}/products/${productSegment(p)}`,
    offerId: p.offerId,
    contentLanguage: p.contentLanguage,
    feedLabel: p.feedLabel,
    dataSource: account.dataSources[0]!.name,
    productAttributes: attributesOf(account, p),
    productStatus: {
      destinationStatuses: [
        { reportingContext: "SHOPPING_ADS", approvedCountries: s.approvedCountries ?? [], pendingCountries: s.pendingCountries ?? [], disapprovedCountries: s.disapprovedCountries ?? [] },
      ],
      ...(s.issues && s.issues.length > 0 ? { itemLevelIssues: s.issues } : {}),
      creationDate: "2026-11-01T02:00:00Z",
      lastUpdateDate: "2026-11-26T02:00:00Z",
      googleExpirationDate: "2026-12-26T02:00:00Z",
    },
  };
}

export function listProducts(account: FakeAccount, query: URLSearchParams): Reply {
  const size = pageSize(query.get("pageSize"), 1000);
  const offset = readPageToken(query.get("pageToken"), "products");
  if (size === undefined) return googleError(400, "Invalid value at 'page_size' (TYPE_INT32)");
  if (offset === undefined) return googleError(400, "Invalid page token.");
  const page = account.products.slice(offset, offset + size);
  const next = offset + size < account.products.length ? { nextPageToken: pageToken(offset + size, "products") } : {};
  return ok({ products: page.map((p) => view(account, p)), ...next });
}

export function getProduct(account: FakeAccount, segment: string): Reply {
  const key = parseProductSegment(decodeURIComponent(segment));
  if (!key) return googleError(400, `Invalid product name: ${segment}`);
  const found = account.products.find((p) => keyOf(p) === keyOf(key));
  return found ? ok(view(account, found)) : googleError(404, "Requested entity was not found.");
}

function supplemental(account: FakeAccount, dataSource: string | null): Reply | undefined {
  const source = account.dataSources.find((d) => d.name === dataSource);
  if (!source) return googleError(400, `Data source ${dataSource ?? "(none)"} not found or not in account ${account.id}.`);
  if (source.input !== "API") return googleError(400, "Only data sources with API input can be written with productInputs.");
  return undefined;
}

export function insertInput(account: FakeAccount, query: URLSearchParams, body: unknown): Reply {
  const refused = supplemental(account, query.get("dataSource"));
  if (refused) return refused;
  const input = (body ?? {}) as Partial<FakeInput> & Record<string, unknown>;
  for (const field of ["offerId", "contentLanguage", "feedLabel"] as const) {
    if (typeof input[field] !== "string" || input[field] === "") return googleError(400, `${field} is required.`);
  }
  const unknownTop = Object.keys(input).filter((k) => !["offerId", "contentLanguage", "feedLabel", "productAttributes", "customAttributes", "name", "versionNumber"].includes(k));
  const attributes = (input.productAttributes ?? {}) as Record<string, unknown>;
  const unknown = [...unknownTop, ...Object.keys(attributes).filter((k) => !KNOWN_ATTRIBUTES.has(k)).map((k) => `product_attributes.${k}`)];
  if (unknown.length > 0) return googleError(400, `Invalid JSON payload received. Unknown name "${unknown[0]}": Cannot find field.`);
  if (attributes["gtins"] !== undefined && !Array.isArray(attributes["gtins"])) return googleError(400, "Invalid value at 'product_input.product_attributes.gtins': a list is expected.");
  if (attributes["availability"] !== undefined && !AVAILABILITY.has(String(attributes["availability"]))) return googleError(400, `Invalid value at 'product_input.product_attributes.availability', "${String(attributes["availability"])}"`);
  for (const money of ["price", "salePrice"]) {
    const m = attributes[money] as { amountMicros?: unknown; currencyCode?: unknown } | undefined;
    if (m !== undefined && (typeof m.amountMicros !== "string" || !/^-?\d+$/.test(m.amountMicros) || typeof m.currencyCode !== "string")) {
      return googleError(400, `Invalid value at 'product_input.product_attributes.${money}': amountMicros (int64 string) and currencyCode are required.`);
    }
  }
  const dataSource = query.get("dataSource")!;
  const key = { offerId: input.offerId!, contentLanguage: input.contentLanguage!, feedLabel: input.feedLabel! };
  const inputs = account.inputs.get(dataSource) ?? new Map<string, FakeInput>();
  account.inputs.set(dataSource, inputs);
  inputs.set(keyOf(key), { ...key, productAttributes: attributes });
  return ok({ name: `accounts/${account.id}/productInputs/${productSegment(key)}`, product: `accounts/${account.id}/products/${productSegment(key)}`, ...key, productAttributes: attributes });
}

export function deleteInput(account: FakeAccount, segment: string, query: URLSearchParams): Reply {
  const refused = supplemental(account, query.get("dataSource"));
  if (refused) return refused;
  const key = parseProductSegment(decodeURIComponent(segment));
  if (!key) return googleError(400, `Invalid product input name: ${segment}`);
  const removed = account.inputs.get(query.get("dataSource")!)?.delete(keyOf(key));
  return removed ? ok({}) : googleError(404, "Requested entity was not found.");
}
