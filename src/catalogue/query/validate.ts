/**
 * Refuses, before any request, a query body the spec would reject: unknown
 * filter or sorting, wrong enum value, bad page size, missing required key.
 * The error names the JSON path and what was wrong (`QUERY_INVALID`).
 */
import { z } from "zod";
import { PharmafeedError } from "../../errors.js";
import { Page } from "./filter-kit.js";
import type { ResourceDef } from "./resources.js";

export type BodyKind = "query" | "stream";

export interface QueryBody {
  filter?: unknown;
  sorting?: unknown;
  page?: { no: number; size?: number };
}

const cache = new WeakMap<ResourceDef, Map<BodyKind, z.ZodType>>();

function bodySchema(def: ResourceDef, kind: BodyKind): z.ZodType {
  let byKind = cache.get(def);
  if (!byKind) cache.set(def, (byKind = new Map()));
  let schema = byKind.get(kind);
  if (schema) return schema;
  const need = <T extends z.ZodType>(type: T, required: boolean) => (required ? type : type.optional());
  const shape: Record<string, z.ZodType> = {
    filter: need(def.filter, def.body.filter === "required"),
  };
  if (def.sorting) shape.sorting = need(def.sorting, def.body.sorting === "required");
  // Streams take no page; a query with `page: required` must have one.
  if (kind === "query") shape.page = need(Page, def.body.page === "required");
  schema = z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `${def.path}/${kind} takes no ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}`
        : undefined,
  });
  byKind.set(kind, schema);
  return schema;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out;
}

interface Found {
  path: PropertyKey[];
  message: string;
  input?: unknown;
}

/**
 * A union's own message says only "Invalid input": report the branch that got
 * furthest (an issue inside the value beats a type mismatch of the whole value).
 */
function explain(issue: z.core.$ZodIssue, base: PropertyKey[] = []): Found {
  const path = [...base, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    let best: z.core.$ZodIssue | undefined;
    let bestScore = -1;
    for (const branch of issue.errors) {
      const first = branch[0];
      if (!first) continue;
      const score = (first.path.length > 0 ? 2 : 0) + (first.code !== "invalid_type" ? 1 : 0);
      if (score > bestScore) [best, bestScore] = [first, score];
    }
    if (best) return explain(best, path);
  }
  if (issue.code === "invalid_type" && issue.input === undefined) return { path, message: "required" };
  // Listing the whole object after "unknown key" or "exactly one key" adds only noise.
  const input = issue.code === "unrecognized_keys" || issue.code === "custom" ? undefined : issue.input;
  return { path, message: issue.message, input };
}

function got(input: unknown): string {
  if (input === undefined) return "";
  const text = JSON.stringify(input) ?? String(input);
  return `, got ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`;
}

/** Returns the body unchanged when valid; throws QUERY_INVALID naming the first bad path. */
export function validateQueryBody(def: ResourceDef, kind: BodyKind, body: QueryBody): QueryBody {
  const parsed = bodySchema(def, kind).safeParse(body, { reportInput: true });
  if (parsed.success) return body;
  const found = parsed.error.issues.map((issue) => explain(issue));
  const first = found[0] ?? { path: [], message: "invalid query" };
  const where = formatPath(first.path) || "(body)";
  const extra = found.length > 1 ? ` (and ${found.length - 1} more)` : "";
  throw new PharmafeedError(
    "QUERY_INVALID",
    `${def.path}/${kind}: ${where}: ${first.message}${got(first.input)}${extra}`,
    { context: { path: where, resource: def.path } },
  );
}
