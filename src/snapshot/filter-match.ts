/**
 * The source filter, evaluated here on a record of a delta: a delta asks for
 * every product changed since (every status, the service's advice), and a
 * changed product that no longer matches the filter (deactivated, moved to
 * another brand) must leave the snapshot. Only filters whose meaning the
 * record itself shows are evaluated; any other key makes the delta fall back
 * to a full read (`unsupportedKey`), never a guess.
 */

type Rec = Record<string, unknown>;
type Test = (record: Rec) => boolean;

const many = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** Ids of an array of objects ({id}) or of scalars. */
function ids(value: unknown): unknown[] {
  return Array.isArray(value) ? value.map((v) => (v !== null && typeof v === "object" ? (v as Rec).id : v)) : [];
}

const LEAVES: Record<string, (wanted: unknown) => Test> = {
  status: (wanted) => {
    const set = new Set(many(wanted));
    return (r) => set.has(r.status);
  },
  id: (wanted) => {
    const set = new Set(many(wanted));
    return (r) => set.has(r.id);
  },
  brand: (wanted) => {
    const set = new Set(many(wanted));
    return (r) => ids(r.brands).some((id) => set.has(id));
  },
  organization: (wanted) => {
    const set = new Set(many(wanted));
    return (r) => ids(r.organizations).some((id) => set.has(id));
  },
  productFamily: (wanted) => {
    const set = new Set(many(wanted));
    return (r) => ids(r.productFamily).some((id) => set.has(id));
  },
  ecommerce: (wanted) => {
    const set = new Set(many(wanted));
    return (r) => set.has(r.ecommerce ?? "unknown");
  },
  prescription: (wanted) => (r) => (r.prescription === true) === wanted,
};

/** The first filter key that cannot be evaluated on a record, or undefined when all can. */
export function unsupportedKey(filter: unknown): string | undefined {
  if (filter === null || typeof filter !== "object" || Array.isArray(filter)) return "(not an object)";
  for (const [key, value] of Object.entries(filter as Rec)) {
    if (key === "and" || key === "or") {
      for (const part of many(value)) {
        const inner = unsupportedKey(part);
        if (inner !== undefined) return inner;
      }
    } else if (key === "not") {
      const inner = unsupportedKey(value);
      if (inner !== undefined) return inner;
    } else if (!(key in LEAVES)) {
      return key;
    }
  }
  return undefined;
}

/** The filter as a test of a record (its keys must all be supported: see unsupportedKey). */
export function compileFilter(filter: unknown): Test {
  const tests: Test[] = Object.entries(filter as Rec).map(([key, value]): Test => {
    if (key === "and") {
      const parts = many(value).map(compileFilter);
      return (r) => parts.every((t) => t(r));
    }
    if (key === "or") {
      const parts = many(value).map(compileFilter);
      return (r) => parts.some((t) => t(r));
    }
    if (key === "not") {
      const inner = compileFilter(value);
      return (r) => !inner(r);
    }
    return (LEAVES[key] as (wanted: unknown) => Test)(value);
  });
  return (r) => tests.every((t) => t(r));
}
