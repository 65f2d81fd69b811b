/**
 * A check-only twin of a zod schema, generated from the schema's definition.
 *
 * Why: zod parses a product (about 6 KB of JSON, hundreds of values) into a
 * fresh copy, which costs about three times the JSON.parse of its line. The
 * wire schemas only accept or refuse (no transform, no default), so for them
 * "valid" means "the parsed JSON already is the output", and a predicate that
 * walks the value without copying gives the same answer. It is compiled to one
 * JavaScript function per object, array and record schema (zod 4 JIT-compiles
 * its objects the same way) because closures per node cost about four times more.
 * zod stays the single source: nothing here is written by hand per field, and a
 * refused value is handed to zod for the exact issue and path.
 *
 * Measured (bench/checker.ts, 10,000 sandbox products, medians of 5 runs, CPU time): validating a
 * line takes 107 us with zod's safeParse and 4.8 us with the checker (22x); with zod alone a
 * line's parse and check would cost 140 us instead of 38. That is why code is generated here.
 *
 * `compileChecker` returns undefined when the schema holds anything whose output
 * may differ from its input (transforms, defaults, stripping objects, overwrite
 * checks) or a kind it does not know; callers then use zod alone.
 */
import type { z } from "zod";

export type Checker = (value: unknown) => boolean;

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
}

interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, unknown>;
  values?: unknown[];
  getter?: () => z.ZodType;
  format?: string;
}

class Unsupported extends Error {}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Generated code refers to helpers and sub-checkers by index in `refs`. */
class Compiler {
  readonly refs: unknown[] = [];
  readonly #functions = new Map<z.ZodType, number>();
  readonly #bodies: string[] = [];

  ref(value: unknown): string {
    this.refs.push(value);
    return `r[${this.refs.length - 1}]`;
  }

  /** A JS boolean expression testing `v` (a plain identifier) against `schema`; negate it only in parentheses. */
  expr(schema: z.ZodType, v: string): string {
    const def = defOf(schema);
    switch (def.type) {
      case "string":
        return this.#checked(schema, def, `typeof ${v} === "string"`, v);
      case "number":
        return this.#checked(schema, def, `(typeof ${v} === "number" && Number.isFinite(${v}))`, v);
      case "boolean":
        return this.#checked(schema, def, `typeof ${v} === "boolean"`, v);
      case "null":
        return `${v} === null`;
      case "unknown":
      case "any":
        return "true";
      case "literal":
      case "enum": {
        const values = def.type === "enum" ? Object.values(def.entries ?? {}) : (def.values ?? []);
        return `${this.ref(new Set(values))}.has(${v})`;
      }
      case "optional":
        return `(${v} === undefined || ${this.expr(def.innerType as z.ZodType, v)})`;
      case "nullable":
        return `(${v} === null || ${this.expr(def.innerType as z.ZodType, v)})`;
      case "union":
        return `(${(def.options ?? []).map((option) => this.expr(option, v)).join(" || ")})`;
      case "lazy":
      case "array":
      case "record":
      case "object":
        return `f${this.#function(schema)}(${v})`;
      default:
        throw new Unsupported(def.type);
    }
  }

  /** Length bounds, safe integers and numeric bounds inline; any other check (formats, regexes) is asked of zod. */
  #checked(schema: z.ZodType, def: Def, base: string, v: string): string {
    const delegate = `(${base} && ${this.ref(schema)}.safeParse(${v}).success)`;
    if (def.format !== undefined) return delegate;
    const parts = [base];
    for (const check of def.checks ?? []) {
      const c = check._zod.def;
      if (c.check === "overwrite") throw new Unsupported("overwrite check");
      if (c.check === "min_length" && typeof c.minimum === "number") parts.push(`${v}.length >= ${c.minimum}`);
      else if (c.check === "max_length" && typeof c.maximum === "number") parts.push(`${v}.length <= ${c.maximum}`);
      else if (c.check === "number_format" && c.format === "safeint") parts.push(`Number.isSafeInteger(${v})`);
      else if (c.check === "greater_than" && typeof c.value === "number") parts.push(`${v} ${c.inclusive ? ">=" : ">"} ${c.value}`);
      else if (c.check === "less_than" && typeof c.value === "number") parts.push(`${v} ${c.inclusive ? "<=" : "<"} ${c.value}`);
      else return delegate;
    }
    return parts.length === 1 ? base : `(${parts.join(" && ")})`;
  }

  #function(schema: z.ZodType): number {
    const known = this.#functions.get(schema);
    if (known !== undefined) return known;
    const id = this.#functions.size;
    this.#functions.set(schema, id);
    this.#bodies[id] = "";
    this.#bodies[id] = `function f${id}(v) {\n${this.#body(schema)}\n}`;
    return id;
  }

  #body(schema: z.ZodType): string {
    const def = defOf(schema);
    if (def.type === "lazy") return `return ${this.expr((def.getter as () => z.ZodType)(), "v")};`;
    if (def.type === "array") {
      const bounds = this.#checked(schema, { type: "array", ...(def.checks ? { checks: def.checks } : {}) }, "true", "v");
      return [
        `if (!Array.isArray(v) || !(${bounds})) return false;`,
        `for (let i = 0; i < v.length; i++) { const x = v[i]; if (!(${this.expr(def.element as z.ZodType, "x")})) return false; }`,
        "return true;",
      ].join("\n");
    }
    if (def.type === "record") {
      const key = defOf(def.keyType as z.ZodType);
      if (key.type !== "string" || key.checks?.length || key.format !== undefined || def.checks?.length) throw new Unsupported("record");
      // z.record wants a plain object (prototype Object or null), as JSON.parse makes.
      return [
        `if (typeof v !== "object" || v === null || Array.isArray(v)) return false;`,
        `const p = Object.getPrototypeOf(v); if (p !== Object.prototype && p !== null) return false;`,
        `for (const k in v) { if (!Object.hasOwn(v, k)) continue; const x = v[k]; if (!(${this.expr(def.valueType as z.ZodType, "x")})) return false; }`,
        "return true;",
      ].join("\n");
    }
    if (def.checks?.length) throw new Unsupported("object refinement");
    // A plain z.object strips unknown keys: its output is not its input.
    const catchall = def.catchall ? defOf(def.catchall).type : "strip";
    if (catchall !== "unknown" && catchall !== "never") throw new Unsupported(`object catchall ${catchall}`);
    // One pass over the keys present, dispatched by a switch: looking up each of a
    // product's ~60 known keys instead (most absent, each object its own hidden
    // class) costs several times more. Keys that cannot be absent are counted.
    const shape = def.shape ?? {};
    const lines = [`if (typeof v !== "object" || v === null || Array.isArray(v)) return false;`, "let present = 0;", "for (const k in v) {", "const x = v[k];", "switch (k) {"];
    let mandatory = 0;
    for (const [key, field] of Object.entries(shape)) {
      const required = !this.#acceptsUndefined(field);
      if (required) mandatory++;
      lines.push(`case ${JSON.stringify(key)}: if (!(${this.expr(field, "x")})) return false;${required ? " present++;" : ""} break;`);
    }
    lines.push(catchall === "never" ? "default: return false;" : "default: break;", "}", "}");
    lines.push(`return present === ${mandatory};`);
    return lines.join("\n");
  }

  /** Whether zod accepts a missing key for this schema (optional, nullish, unknown, any). */
  #acceptsUndefined(schema: z.ZodType): boolean {
    return schema.safeParse(undefined).success;
  }

  build(schema: z.ZodType): Checker {
    const root = this.expr(schema, "v");
    const source = `${this.#bodies.join("\n")}\nreturn function check(v) { return ${root}; };`;
    // Code built only from the schema's own keys (JSON-quoted) and constants; values never reach it.
    return new Function("r", source)(this.refs) as Checker;
  }
}

const cache = new WeakMap<z.ZodType, Checker | null>();

/** The schema's checker, or undefined when zod must parse it itself (see above). */
export function compileChecker(schema: z.ZodType): Checker | undefined {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  let checker: Checker | null;
  try {
    checker = new Compiler().build(schema);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    checker = null;
  }
  cache.set(schema, checker);
  return checker ?? undefined;
}
