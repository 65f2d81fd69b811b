/**
 * Building blocks of the wire schemas. They are tolerant exactly where the real
 * service is ambiguous (shared reference: wire-facts.md) and keep the raw value:
 * normalising (GTIN padding, VAT scale, price unit) is the mapping layer's job,
 * where a bad value becomes a counted reason instead of a rejected record.
 * Objects are `looseObject`: unknown fields pass through untouched.
 */
import { z } from "zod";

/** `name.{...}`: locale code -> text. A key can be missing, empty or (seen) null. */
export const Localized = z.record(z.string(), z.string().nullable());
export type Localized = z.infer<typeof Localized>;

/** Unix seconds. */
export const Timestamp = z.number();

export const Meta = z.looseObject({
  createdAt: Timestamp.nullish(),
  updatedAt: Timestamp.nullish(),
});
export type Meta = z.infer<typeof Meta>;

/** A code documented as integer that clients also see as a string (leading zeros kept). */
export const WireCode = z.union([z.string(), z.number()]);
export type WireCode = z.infer<typeof WireCode>;

/** eanGtin8/12/13/14: an integer, a string, or a one-element (sometimes longer) array of either. */
export const WireGtin = z.union([WireCode, z.array(WireCode)]);
export type WireGtin = z.infer<typeof WireGtin>;

/** An amount in the source's price unit (cents by default, see the `priceUnit` setting). */
export const WireAmount = z.number();

/** `{value, unit}` measures; value can be fractional (0.37 kg). */
export const WithUnit = z.looseObject({ value: z.number().nullish(), unit: z.string().nullish() });
export type WithUnit = z.infer<typeof WithUnit>;

/** `{id, name}` pairs used by colors, dietary restrictions, species, galenic shapes. */
export const CodeWithName = z.looseObject({
  id: z.union([z.string(), z.number()]),
  name: Localized.nullish(),
});
