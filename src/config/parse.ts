/**
 * Reading one config file: JSON, ${ENV} references, then its schema; every problem collected
 * with the file and the JSON path (load.ts and shops.ts put them together into one error).
 */
import { access } from "node:fs/promises";
import type { z } from "zod";
import { PharmafeedError } from "../errors.js";
import { formatIssue } from "../core/issues.js";
import { readJsonFile } from "../core/json-file.js";
import { plainSecretPaths } from "../destinations/settings.js";
import { substituteEnv } from "./env.js";
import { plainSnapshotSecretPaths } from "./snapshot-settings.js";

export type Env = Readonly<Record<string, string | undefined>>;

/** One entry per problem: a multi-line one (a Handlebars parse error) stays one entry, indented. */
export class Problems {
  readonly lines: string[] = [];
  add(file: string, path: string, message: string): void {
    this.lines.push(`${file}: ${path}: ${message}`);
  }
  /** `under` is where `input` sits in the file, e.g. ["source", "filter"]. */
  addIssues(file: string, issues: readonly z.core.$ZodIssue[], input: unknown, under: string[] = []): void {
    const whole = under.reduceRight<unknown>((inner, key) => ({ [key]: inner }), input);
    for (const issue of issues) this.lines.push(`${file}: ${formatIssue({ ...issue, path: [...under, ...issue.path] }, whole)}`);
  }
  fromError(error: unknown): void {
    if (!(error instanceof PharmafeedError && error.code === "CONFIG_INVALID")) throw error;
    const [first = "", ...rest] = error.message.split("\n").filter((l) => l.trim() !== "");
    // "<file> is invalid (N problems):" heads N lines, one problem each (formatIssues).
    if (/ is invalid \(\d+ problems?\):$/.test(first)) this.lines.push(...rest.map((l) => l.trim()));
    else this.lines.push([first, ...rest.map((l) => `  ${l}`)].join("\n  "));
  }
}

/**
 * Reads a file, substitutes ${ENV} references and validates it. `data` is
 * undefined when it has problems; `raw` still lets later passes look further.
 */
export async function parseFile<T>(
  file: string,
  schema: z.ZodType<T>,
  env: Env,
  problems: Problems,
  /** Unset variables tolerated at these paths (validate --no-credentials). */
  tolerate: readonly (string | RegExp)[] = [],
  /** Top-level sections left out (and said in `skipped`) when they hold unset variables: a command that does not use them. */
  optional: readonly string[] = [],
  /** Keys merged over the file's (a shop file's overrides of a shared channel file). */
  over?: Record<string, unknown>,
): Promise<{ raw: Record<string, unknown>; data?: T; skipped?: string[] }> {
  let json: unknown;
  try {
    json = await readJsonFile(file);
  } catch (error) {
    problems.fromError(error);
    return { raw: {} };
  }
  for (const path of [...plainSecretPaths(json), ...plainSnapshotSecretPaths(json)]) problems.add(file, path, `written in the file as it is: put it in an environment variable and write "\${VARIABLE}" here (credentials come only from the environment)`);
  const substituted = substituteEnv(json, env);
  if (over) substituted.value = merge(substituted.value, over);
  const raw = isPlainObject(substituted.value) ? substituted.value : {};
  const skipped: string[] = [];
  const inSection = (path: string, section: string) => path === section || path.startsWith(`${section}.`) || path.startsWith(`${section}[`);
  const dropped = optional.filter((section) => substituted.problems.some((p) => inSection(p.path, section)));
  for (const section of dropped) {
    if (isPlainObject(substituted.value)) delete substituted.value[section];
    const unset = substituted.problems.filter((p) => inSection(p.path, section)).map((p) => p.message);
    skipped.push(`${section}: not checked (${unset.join("; ")}); generate and serve need it`);
  }
  const envProblems = substituted.problems.filter(
    (p) => !tolerate.some((t) => (typeof t === "string" ? t === p.path : t.test(p.path))) && !dropped.some((section) => inSection(p.path, section)),
  );
  for (const p of envProblems) problems.add(file, p.path, p.message);
  const parsed = schema.safeParse(substituted.value);
  if (!parsed.success) {
    problems.addIssues(file, parsed.error.issues, substituted.value);
    return { raw };
  }
  return envProblems.length > 0 ? { raw } : { raw, data: parsed.data, ...(skipped.length > 0 ? { skipped } : {}) };
}

/** Deep merge for plain objects; arrays and scalars of `over` replace those of `base`. */
export function merge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export function refused(file: string, problems: Problems): PharmafeedError {
  const count = problems.lines.length;
  return new PharmafeedError("CONFIG_INVALID", `configuration refused (${count} problem${count === 1 ? "" : "s"}):\n  ${problems.lines.join("\n  ")}`, {
    context: { file },
  });
}
