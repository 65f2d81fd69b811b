/**
 * Product sortings: id (index order, ids increase with the index), name
 * {direction, locale} (lowercased name in that locale, compared by code units;
 * a missing name sorts as ""), createdAt, touchedAt (meta.updatedAt),
 * statusTouchedAt (when the status last changed), status (alphabetical).
 */
import type { Catalogue } from "../generate/catalogue.js";
import { direction, simpleSort, type SortTable } from "./sorting.js";
import { shape, violation } from "./params.js";
import type { ProductRow } from "./row.js";

export function productSortings(catalogue: Catalogue): SortTable<ProductRow> {
  return {
    id: simpleSort<ProductRow>(undefined),
    name: {
      parse(ctx, path, value) {
        const obj = shape(ctx, path, value, ["direction", "locale"], []);
        if (!obj) return undefined;
        const dir = direction(ctx, `${path}.direction`, obj.direction);
        if (typeof obj.locale !== "string") return violation(ctx, `${path}.locale`, `expected a locale code such as "fr", got ${JSON.stringify(obj.locale)}`);
        const locale = obj.locale;
        if (dir === undefined) return undefined;
        return {
          dir,
          heavy: true,
          key: (row) => {
            const name = (row.product.name as Record<string, unknown> | undefined)?.[locale];
            return typeof name === "string" ? name.toLowerCase() : "";
          },
        };
      },
    },
    createdAt: simpleSort<ProductRow>((row) => catalogue.createdAt(row.i)),
    touchedAt: simpleSort<ProductRow>((row) => catalogue.updatedAt(row.i)),
    statusTouchedAt: simpleSort<ProductRow>((row) => catalogue.statusTouchedAt(row.i)),
    status: simpleSort<ProductRow>((row) => catalogue.status(row.i)),
  };
}
