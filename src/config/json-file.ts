/** Reads a JSON config file; a syntax error names the file, line and column. */
import { readFile } from "node:fs/promises";
import { PharmafeedError } from "../errors.js";

function position(text: string, message: string): string {
  const at = /position (\d+)/.exec(message);
  if (!at) return "";
  const offset = Number(at[1]);
  const before = text.slice(0, offset).split("\n");
  return ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
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
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    const message = (cause as Error).message;
    throw new PharmafeedError("CONFIG_INVALID", `${file}: not valid JSON${position(text, message)}: ${message}`, {
      cause,
      context: { file },
    });
  }
}
