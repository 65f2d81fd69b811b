/**
 * The image files under output/images/: named by the sha256 of their bytes,
 * so a URL never changes while the image does not (Meta warns against moving
 * image URLs) and two channels or photos with the same result share a file.
 * Written to a hidden temporary name and renamed into place, so `serve`
 * never sends half a file; a name already present is not written again.
 */
import { createHash } from "node:crypto";
import { access } from "node:fs/promises";
import { join } from "node:path";
import { PharmafeedError } from "../errors.js";
import { OUTPUT_FORMATS, type OutputFormat } from "./settings.js";
import { replaceFile } from "../core/atomic-file.js";
import { IMAGES_DIR } from "../core/layout.js";


export function imageName(bytes: Buffer, format: OutputFormat): string {
  return `${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}.${OUTPUT_FORMATS[format]}`;
}

/** `<publicBaseUrl>/images/<name>`. */
export function publicImageUrl(publicBaseUrl: string, name: string): string {
  return `${publicBaseUrl.replace(/\/+$/, "")}/${IMAGES_DIR}/${name}`;
}

export class ImageStore {
  /** Names known to exist (checked or written by this run). */
  private readonly present = new Set<string>();

  constructor(
    readonly dir: string,
    /** Dry run: names are computed, nothing is written. */
    private readonly write: boolean,
  ) {}

  /** Saves in progress by name: two photos with the same result must not share a temporary file. */
  private readonly saving = new Map<string, Promise<boolean>>();

  /** Stores `bytes` under their name; resolves to the name and whether a file was written. */
  async save(bytes: Buffer, format: OutputFormat): Promise<{ name: string; written: boolean }> {
    const name = imageName(bytes, format);
    if (!this.write || this.present.has(name)) return { name, written: false };
    let pending = this.saving.get(name);
    if (pending) {
      await pending;
      return { name, written: false };
    }
    pending = this.writeOnce(name, bytes).finally(() => this.saving.delete(name));
    this.saving.set(name, pending);
    return { name, written: await pending };
  }

  private async writeOnce(name: string, bytes: Buffer): Promise<boolean> {
    const target = join(this.dir, name);
    if (await exists(target)) {
      this.present.add(name);
      return false;
    }
    try {
      await replaceFile(target, bytes);
    } catch (cause) {
      if (cause instanceof PharmafeedError) throw cause;
      throw new PharmafeedError("WRITE_FAILED", `cannot write ${target}: ${(cause as Error).message}`, { cause, context: { file: target } });
    }
    this.present.add(name);
    return true;
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
