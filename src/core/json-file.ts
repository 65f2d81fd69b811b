/** Reads a JSON config file; a syntax error, or a key written twice, names the file, line and column. */
import { readFile } from "node:fs/promises";
import { type JSONPath, visit } from "jsonc-parser";
import { PharmafeedError } from "../errors.js";

/**
 * The offset of a JSON.parse error. V8 gives "at position N" for most errors,
 * but for an unexpected token only an excerpt of up to 10 characters either side
 * of it ("...excerpt..."), which we find in the text.
 */
function errorOffset(text: string, message: string): number | undefined {
  const at = /position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  const excerpt = /Unexpected token '(.+?)', (\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON/.exec(message);
  if (!excerpt) return undefined;
  const [, token = "", cutBefore, snippet = ""] = excerpt;
  const start = text.indexOf(snippet);
  if (start < 0) return undefined;
  return start + (cutBefore ? 10 : Math.max(0, snippet.lastIndexOf(token)));
}

function position(text: string, message: string): string {
  const offset = errorOffset(text, message);
  if (offset === undefined) return "";
  const before = text.slice(0, offset).split("\n");
  return ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/** Drops a leading UTF-8 byte order mark (U+FEFF), which editors add and nothing else expects. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** `rows[0].limits`, as the config checks write a JSON path. */
function pathText(path: JSONPath): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${p}`)).join("");
}

export interface DuplicateKey {
  /** The key's JSON path (`rows[0].verdict`). */
  path: string;
  line: number;
  column: number;
}

/**
 * Keys written twice in one object. JSON.parse keeps the last one without a word, so a lawyer's
 * `"verdict": "deny"` followed by a forgotten `"verdict": "allow"` would allow; a config never
 * means that. jsonc-parser's visitor walks the text (already valid JSON here) with positions.
 */
export function duplicateKeys(text: string): DuplicateKey[] {
  const open: Set<string>[] = [];
  const found: DuplicateKey[] = [];
  visit(text, {
    onObjectBegin: () => {
      open.push(new Set());
    },
    onObjectEnd: () => {
      open.pop();
    },
    onObjectProperty: (key, _offset, _length, line, character, pathOf) => {
      const keys = open.at(-1);
      if (keys === undefined) return;
      if (keys.has(key)) found.push({ path: pathText([...pathOf(), key]), line: line + 1, column: character + 1 });
      keys.add(key);
    },
  });
  return found;
}

export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new PharmafeedError("CONFIG_INVALID", `${file}: cannot read (${code === "ENOENT" ? "no such file" : code})`, {
      cause,
      context: { file },
    });
  }
  // Windows editors (Notepad) save UTF-8 with a byte order mark; JSON.parse refuses it as an invisible token.
  text = stripBom(text);
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (cause) {
    const message = (cause as Error).message;
    throw new PharmafeedError("CONFIG_INVALID", `${file}: not valid JSON${position(text, message)}: ${message}`, {
      cause,
      context: { file },
    });
  }
  const twice = duplicateKeys(text);
  if (twice.length > 0) {
    const [first] = twice as [DuplicateKey];
    const more = twice.length > 1 ? ` (and ${twice.slice(1).map((d) => `${d.path}, line ${d.line}`).join("; ")})` : "";
    throw new PharmafeedError("CONFIG_INVALID", `${file}: ${first.path}: written twice (again at line ${first.line}, column ${first.column}): JSON would keep the last one without a word; write it once${more}`, { context: { file, path: first.path, line: first.line } });
  }
  return json;
}
