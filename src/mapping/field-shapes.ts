/**
 * What names exist, so that a template or a rule naming a field no item has is
 * refused when the config loads instead of rendering empty cells or never
 * matching. A Shape is the tree of names one can write after a dot; lists are
 * crossed transparently (`brands.id`, as rules and templates read them).
 *
 * The product's shape comes from its zod schema (the single source of the
 * wire's names); the derived names from DERIVED_FIELDS.
 */
import { closest, distance } from "fastest-levenshtein";
import { z } from "zod";
import { Product } from "../catalogue/schemas/product.js";
import { DERIVED_FIELDS } from "./fields.js";

export type Shape =
  /** A value with nothing after a dot. */
  | { kind: "scalar" }
  /** Undocumented content (`attributes`, a localized record's locales): any name goes. */
  | { kind: "any" }
  | { kind: "object"; fields: Readonly<Record<string, Shape>> }
  /** A list: a path crosses it (each element); `#each` walks it. */
  | { kind: "list"; of: Shape };

export const SCALAR: Shape = { kind: "scalar" };
export const ANY: Shape = { kind: "any" };
export const object = (fields: Record<string, Shape>): Shape => ({ kind: "object", fields });
export const list = (of: Shape): Shape => ({ kind: "list", of });

/** The shape a zod schema describes, through optional, nullable, unions, lazy and pipes. */
export function shapeOfSchema(schema: z.ZodType, seen = new Map<z.ZodType, Shape>()): Shape {
  const known = seen.get(schema);
  if (known) return known;
  let shape: Shape = SCALAR;
  if (schema instanceof z.ZodObject) {
    const fields: Record<string, Shape> = {};
    shape = { kind: "object", fields };
    seen.set(schema, shape);
    for (const [key, value] of Object.entries(schema.shape as Record<string, z.ZodType>)) fields[key] = shapeOfSchema(value, seen);
    return shape;
  }
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) shape = shapeOfSchema(schema.unwrap() as z.ZodType, seen);
  else if (schema instanceof z.ZodArray) shape = list(shapeOfSchema(schema.element as z.ZodType, seen));
  else if (schema instanceof z.ZodRecord || schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) shape = ANY;
  else if (schema instanceof z.ZodLazy) shape = shapeOfSchema(schema.unwrap() as z.ZodType, seen);
  else if (schema instanceof z.ZodPipe) shape = shapeOfSchema(schema.in as z.ZodType, seen);
  else if (schema instanceof z.ZodUnion) shape = unite((schema.options as z.ZodType[]).map((o) => shapeOfSchema(o, seen)));
  seen.set(schema, shape);
  return shape;
}

/** A union's names: any of its members' (`name` is a string or a localized record: any locale). */
function unite(shapes: Shape[]): Shape {
  const inner = shapes.map((s) => (s.kind === "list" ? s.of : s));
  if (inner.some((s) => s.kind === "any")) return ANY;
  const objects = inner.filter((s): s is Extract<Shape, { kind: "object" }> => s.kind === "object");
  if (objects.length === 0) return SCALAR;
  return object(Object.assign({}, ...objects.map((o) => o.fields)) as Record<string, Shape>);
}

/** What title/link/id/custom templates and rules can name: derived names, else a path over the product. */
export const MAPPING_FIELDS: Shape = (() => {
  const product = shapeOfSchema(Product);
  const fields = product.kind === "object" ? { ...product.fields } : {};
  // A derived name alone wins over the product's field (fields.ts ruleField), but a longer path
  // is read on the product (`seoName.nl`): where both exist, the product's shape allows both.
  for (const name of Object.keys(DERIVED_FIELDS)) fields[name] ??= SCALAR;
  return object(fields);
})();

export interface UnknownField {
  /** The name as written. */
  name: string;
  /** The closest known name at the step that failed, as a full path ("price.amount"). */
  suggestion: string | undefined;
}

/**
 * Checks a dotted path against a shape; undefined when some item may have it.
 * A close enough name at the failing step is suggested (see suggest).
 */
export function checkPath(shape: Shape, steps: readonly string[], name = steps.join(".")): UnknownField | undefined {
  let current = shape;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    while (current.kind === "list") current = current.of;
    if (current.kind === "any") return undefined;
    const fields = current.kind === "object" ? current.fields : {};
    const next = Object.hasOwn(fields, step) ? fields[step] : undefined;
    if (next === undefined) {
      const near = suggest(step, Object.keys(fields));
      return { name, suggestion: near === undefined ? undefined : [...steps.slice(0, i), near].join(".") };
    }
    current = next;
  }
  return undefined;
}

export function suggest(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const near = closest(word, candidates as string[]);
  const lowerHit = candidates.find((c) => c.toLowerCase() === word.toLowerCase());
  if (lowerHit !== undefined) return lowerHit;
  // Two edits (a swapped pair: titel/title) or one in three characters, whichever is more.
  return distance(word, near) <= Math.max(2, Math.floor(word.length / 3)) ? near : undefined;
}

/** `unknown field "titel" (did you mean "title"?)` */
export function describeUnknown(field: UnknownField, where = "field"): string {
  return `unknown ${where} "${field.name}"${field.suggestion === undefined ? "" : ` (did you mean "${field.suggestion}"?)`}`;
}
