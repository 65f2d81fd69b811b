/** Reads a layout folder (layout.json and its templates) and checks it against the schema. */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PharmafeedError } from "../errors.js";
import { formatIssues } from "../core/issues.js";
import { stripBom } from "../core/json-file.js";
import { LayoutSpec, type LoadedLayout } from "./layout.js";

/** The templates/ folder shipped with pharmafeed (beside dist/ and src/). */
export const BUILTIN_TEMPLATES = fileURLToPath(new URL("../../templates/", import.meta.url));

async function readText(file: string): Promise<string> {
  try {
    return stripBom(await readFile(file, "utf8"));
  } catch (cause) {
    throw new PharmafeedError("CONFIG_INVALID", `${file}: cannot read template (${(cause as NodeJS.ErrnoException).code ?? "error"})`, {
      cause,
      context: { file },
    });
  }
}

export async function loadLayout(folder: string): Promise<LoadedLayout> {
  const dir = resolve(folder);
  const file = join(dir, "layout.json");
  let json: unknown;
  try {
    json = JSON.parse(await readText(file));
  } catch (cause) {
    if (cause instanceof PharmafeedError) throw cause;
    throw new PharmafeedError("CONFIG_INVALID", `${file}: not valid JSON: ${(cause as Error).message}`, { cause, context: { file } });
  }
  const parsed = LayoutSpec.safeParse(json);
  if (!parsed.success) {
    throw new PharmafeedError("CONFIG_INVALID", formatIssues(file, parsed.error.issues, json), { context: { file } });
  }
  const spec = parsed.data;
  if (spec.format !== "xml") return { spec, source: dir };
  const [header, item, footer] = await Promise.all([spec.header, spec.item, spec.footer].map((name) => readText(join(dir, name))));
  return { spec, source: dir, templates: { header: header ?? "", item: item ?? "", footer: footer ?? "" } };
}
