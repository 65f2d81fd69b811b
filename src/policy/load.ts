/**
 * Reads policy files: the shipped table (config/policy/*.json, every file of the folder in name
 * order) and the config's own. A file is checked whole: its schema (zod), and no two rows with the
 * same key in it (which one would win is not the file's to leave open). Problems carry the file
 * and the JSON path; the caller (config/load.ts) refuses the config with them.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { issueMessage, jsonPath } from "../core/issues.js";
import { readJsonFile } from "../core/json-file.js";
import { PharmafeedError } from "../errors.js";
import { PolicyFile, type PolicyRow, type PolicyRule, ruleKey } from "./schema.js";

/** The table shipped with pharmafeed (package.json `files` includes config/). */
export const SHIPPED_POLICY_DIR = fileURLToPath(new URL("../../config/policy/", import.meta.url));

export interface PolicyProblem {
  file: string;
  path: string;
  message: string;
}


/** Where each rule read from a file was written (its file and JSON path), for problems found once the table is whole (lint.ts). */
const WHERE = new WeakMap<PolicyRule, { file: string; path: string }>();

export function whereWritten(rule: PolicyRule): { file: string; path: string } | undefined {
  return WHERE.get(rule);
}

/** Rows as rules, refusing a key written twice in `rows` (`where` names them in the message). */
export function rowsToRules(rows: readonly PolicyRow[], from: string, file: string, at: string, problems: PolicyProblem[]): PolicyRule[] {
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    const key = ruleKey(row);
    const first = seen.get(key);
    if (first !== undefined) problems.push({ file, path: `${at}[${i}]`, message: `"${key}" is also ${at}[${first}]: keep one row per channel, country and class` });
    else seen.set(key, i);
  });
  return rows.map((row, i) => {
    const rule = { ...row, from };
    WHERE.set(rule, { file, path: `${at}[${i}]` });
    return rule;
  });
}

export async function readPolicyFile(file: string, problems: PolicyProblem[], from = file): Promise<PolicyRule[]> {
  let json: unknown;
  try {
    json = await readJsonFile(file);
  } catch (error) {
    // readJsonFile's messages start with the file, and a key written twice has its JSON path.
    const message = error instanceof Error ? error.message : String(error);
    const at = error instanceof PharmafeedError && typeof error.context.path === "string" ? error.context.path : "(file)";
    const own = message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
    problems.push({ file, path: at, message: at === "(file)" ? own : own.slice(at.length + 2) });
    return [];
  }
  const parsed = PolicyFile.safeParse(json);
  if (!parsed.success) {
    // Worded as every config file's problems are (core/issues.ts): what was expected, what was found.
    for (const issue of parsed.error.issues) problems.push({ file, path: issue.path.length === 0 ? "(file)" : jsonPath(issue.path), message: issueMessage(issue, json) });
    return [];
  }
  return rowsToRules(parsed.data.rows, from, file, "rows", problems);
}

/** Every *.json of a policy folder, in name order; a key in two files of the one table is refused too. */
export async function readPolicyDir(dir: string, problems: PolicyProblem[], label = (name: string) => join(dir, name)): Promise<PolicyRule[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
  } catch (error) {
    problems.push({ file: dir, path: "(folder)", message: error instanceof Error ? error.message : String(error) });
    return [];
  }
  const rules: PolicyRule[] = [];
  const where = new Map<string, string>();
  for (const name of names) {
    const file = join(dir, name);
    for (const rule of await readPolicyFile(file, problems, label(name))) {
      const key = ruleKey(rule);
      const other = where.get(key);
      if (other !== undefined) problems.push({ file, path: "rows", message: `"${key}" is also in ${other}: one table has one row per channel, country and class` });
      else where.set(key, rule.from);
      rules.push(rule);
    }
  }
  return rules;
}
