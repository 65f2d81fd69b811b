/**
 * `generate --dry-run` writes what it would publish into output/preview/: the
 * feeds, their reports and the manifest the run would write, to open and
 * compare before a real run. Nothing outside it changes (no live file, report,
 * manifest or history); each dry run starts from an empty preview folder, so
 * nothing left from an older one can be mistaken for this one's.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Manifest } from "./manifest.js";
import { MANIFEST_FILE, PREVIEW_DIR, REPORTS_DIR } from "../core/layout.js";


/** Empties (or creates) output/preview/ and its reports folder; returns its path. */
export async function preparePreview(outputDir: string): Promise<string> {
  const dir = join(outputDir, PREVIEW_DIR);
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, REPORTS_DIR), { recursive: true });
  return dir;
}

/** The manifest the real run would have written (no history copy). */
export async function writePreviewManifest(previewDir: string, manifest: Manifest): Promise<void> {
  await writeFile(join(previewDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}
