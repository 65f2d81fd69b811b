/**
 * Why the configured source filter (source.filter, the API's filter language)
 * leaves a product out, in words, for a product `explain` had to fetch because
 * the last run never received it. Only the keys whose meaning is plain from the
 * product itself are judged (status, id, prescription, ecommerce, brand, codes,
 * and/or/not around them); for any other key the answer says it cannot tell.
 */
import type { Product } from "../catalogue/schemas/product.js";
import { parseGtin } from "../mapping/gtin.js";

/** true: selects; false: leaves out, with why; undefined: cannot tell (a key not judged here). */
export interface Verdict {
  selects: boolean | undefined;
  why: string[];
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
const SELECTS: Verdict = { selects: true, why: [] };

function codeKey(raw: unknown): string | undefined {
  const parsed = parseGtin(typeof raw === "number" ? raw : String(raw));
  return parsed.ok ? parsed.value.key : typeof raw === "string" || typeof raw === "number" ? String(raw).replace(/^0+/, "") : undefined;
}

function leaf(key: string, value: unknown, p: Product): Verdict {
  const wanted = asList(value);
  switch (key) {
    case "status": {
      const status = p.status ?? "active";
      return wanted.includes(status) ? SELECTS : { selects: false, why: [`status ${status}: the source filter asks for ${wanted.join(" or ")} products`] };
    }
    case "id":
      return wanted.map(String).includes(p.id) ? SELECTS : { selects: false, why: ["its id is not among the ids the source filter lists"] };
    case "prescription":
      return (p.prescription === true) === (value === true) ? SELECTS : { selects: false, why: [`prescription ${p.prescription === true ? "yes" : "no"}: the source filter asks for ${value === true ? "prescription" : "non-prescription"} products`] };
    case "ecommerce": {
      const e = p.ecommerce ?? "unknown";
      return wanted.includes(e) ? SELECTS : { selects: false, why: [`ecommerce ${e}: the source filter asks for ${wanted.join(" or ")}`] };
    }
    case "brand": {
      const ids = (p.brands ?? []).map((b) => b.id);
      return wanted.some((w) => ids.includes(Number(w))) ? SELECTS : { selects: false, why: [`brand ${ids.join(", ") || "none"}: the source filter asks for brand ${wanted.join(" or ")}`] };
    }
    case "ean":
    case "gtin":
    case "eanGtin8":
    case "eanGtin12":
    case "eanGtin13":
    case "eanGtin14":
    case "cip13":
    case "acl13": {
      const have = asList((p as Record<string, unknown>)[key]).filter((x) => x !== null && x !== undefined).map(codeKey);
      return wanted.map(codeKey).some((w) => have.includes(w)) ? SELECTS : { selects: false, why: [`its ${key} is not among those the source filter lists`] };
    }
    default:
      return { selects: undefined, why: [`the source filter's "${key}" is not judged here`] };
  }
}

/** Judges `filter` against the product, as the API would (and: all, or: any, not: none). */
export function judgeSourceFilter(filter: Record<string, unknown>, p: Product): Verdict {
  const verdicts: Verdict[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === "and" || key === "or") {
      const parts = asList(value).map((f) => judgeSourceFilter(f as Record<string, unknown>, p));
      if (key === "and") verdicts.push(combineAll(parts));
      else if (parts.some((v) => v.selects === true)) verdicts.push(SELECTS);
      else if (parts.every((v) => v.selects === false)) verdicts.push({ selects: false, why: parts.flatMap((v) => v.why) });
      else verdicts.push({ selects: undefined, why: parts.flatMap((v) => v.why) });
    } else if (key === "not") {
      const inner = judgeSourceFilter(value as Record<string, unknown>, p);
      verdicts.push(inner.selects === undefined ? inner : inner.selects ? { selects: false, why: [`the source filter excludes what ${JSON.stringify(value)} selects`] } : SELECTS);
    } else verdicts.push(leaf(key, value, p));
  }
  return combineAll(verdicts);
}

function combineAll(verdicts: Verdict[]): Verdict {
  const refused = verdicts.filter((v) => v.selects === false);
  if (refused.length > 0) return { selects: false, why: refused.flatMap((v) => v.why) };
  const unknown = verdicts.filter((v) => v.selects === undefined);
  if (unknown.length > 0) return { selects: undefined, why: unknown.flatMap((v) => v.why) };
  return SELECTS;
}
