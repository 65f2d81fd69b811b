/**
 * What the tests expect of a run, computed from the raw generated products (the
 * same seed as the sandbox's), independently of the mapping code.
 */
import { createCatalogue } from "../../src/sandbox/index.js";

export interface CatalogueFacts {
  /** Ids the default filter ({status: "active"}) streams, in id order. */
  streamIds: string[];
  prescription: Set<string>;
  /** Catalog category type `medicine`. */
  medicine: Set<string>;
  /** Why each streamed product cannot be in any feed (lifecycle and prescription), by the spec's rules. */
  ineligible: Map<string, string>;
}

export function catalogueFacts(options: { seed: number; products: number; now: Date }): CatalogueFacts {
  const catalogue = createCatalogue({ seed: options.seed, products: options.products, assetBaseUrl: "http://sandbox.test" });
  const nowSeconds = options.now.getTime() / 1000;
  const streamIds: string[] = [];
  const prescription = new Set<string>();
  const medicine = new Set<string>();
  const ineligible = new Map<string, string>();
  for (const p of catalogue.products()) {
    const id = p["id"] as string;
    if (p["prescription"] === true) prescription.add(id);
    const types = ((p["catalogCategories"] as { type?: unknown }[] | undefined) ?? []).map((c) => c.type);
    if (types.includes("medicine")) medicine.add(id);
    if (p["status"] !== "active") continue;
    streamIds.push(id);
    const deletion = p["officialDeletionAt"];
    if (p["deleted"] === true) ineligible.set(id, "DELETED");
    else if (typeof deletion === "number" && deletion <= nowSeconds) ineligible.set(id, "OFFICIALLY_DELETED");
    else if (p["prescription"] === true) ineligible.set(id, "POLICY_DENIED");
  }
  return { streamIds: streamIds.sort(), prescription, medicine, ineligible };
}
