/**
 * `"${NAME}"` and `"${NAME:-default}"` references in config strings, so that
 * secrets stay in the environment (or a systemd credential) and out of files.
 */
import { jsonPath } from "../core/issues.js";

export interface EnvProblem {
  path: string;
  message: string;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Returns a copy of `value` with every reference replaced, and every unset variable without default. */
export function substituteEnv(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  path: PropertyKey[] = [],
): { value: unknown; problems: EnvProblem[] } {
  const problems: EnvProblem[] = [];
  const walk = (node: unknown, at: PropertyKey[]): unknown => {
    if (typeof node === "string") {
      return node.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
        const found = env[name];
        if (found !== undefined && found !== "") return found;
        if (fallback !== undefined) return fallback;
        problems.push({ path: jsonPath(at), message: `environment variable ${name} is not set` });
        return "";
      });
    }
    if (Array.isArray(node)) return node.map((child, i) => walk(child, [...at, i]));
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child, [...at, key])]));
    }
    return node;
  };
  return { value: walk(value, path), problems };
}
