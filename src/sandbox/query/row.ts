/**
 * A product as filters see it: the index (for the cheap facts) and the full
 * record, generated only when a filter asks for it and then kept for the other
 * filters of the same evaluation.
 */
import type { Catalogue, ProductRecord } from "../generate/catalogue.js";

export class ProductRow {
  i = 0;
  private record: ProductRecord | undefined;

  constructor(readonly catalogue: Catalogue) {}

  at(i: number): this {
    this.i = i;
    this.record = undefined;
    return this;
  }

  get product(): ProductRecord {
    return (this.record ??= this.catalogue.product(this.i));
  }
}
