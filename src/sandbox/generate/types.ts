/**
 * Shapes of the generated records as the sandbox sends them. The client parses
 * them with its zod schemas (src/catalogue/schemas); these interfaces only type
 * the generator. Fields the wire does not carry but filters need (narcotic, the
 * owner organization of a brand, ...) live under the `HIDDEN` symbol key, which
 * JSON.stringify skips, so they never reach the wire and cost nothing to hide.
 */
export const HIDDEN: unique symbol = Symbol("sandbox.hidden");

export type LocalizedText = Record<string, string>;
export interface Meta {
  createdAt: number;
  updatedAt: number;
}

export type Wire = Record<string, unknown>;

/** Facts about a product that filters and sortings need beyond its wire fields. */
export interface ProductHidden {
  index: number;
  market: "BE" | "FR";
  kind: "medicine" | "veterinary_medicine" | "non_medical";
  narcotic: "yes" | "no" | "unknown" | "assimilated";
  statusTouchedAt: number;
  /** allowedSpecies codes (human, veterinary, surface_maintenance, phytopharmacy). */
  species: string[];
  /** Hidden facts of the product's photos, frontals and links. */
  media: MediaHidden[];
}

export interface MediaHidden {
  id: number;
  /** Index of the product the item belongs to. */
  productIndex: number;
  productId: string;
  frontal: boolean;
  published: boolean;
  organization: number;
}

export interface OrganizationHidden {
  vatNr: string;
  finessNr?: string;
  cipNr?: string;
}

export interface CorrectionHidden {
  organization: number;
  createdBy: number;
}

export interface UpdateHidden {
  sortOrder: number;
  targetGroups: string[];
  locales: string[];
}

/** A generated record with its hidden facts. */
export type WithHidden<H> = Wire & { [HIDDEN]: H };
