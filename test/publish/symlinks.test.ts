/**
 * Writes never follow a symbolic link (issue 15, item 7): links planted in the output
 * directory, where a temporary file, a feed, reports/, history/ or manifest.json should
 * be, are refused with UNSAFE_PATH (or fail their channel with that message) and nothing
 * is written outside.
 */
import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTemporaries, tempDir } from "../e2e/config.js";
import { channel, closeSandboxes, sandboxOf, setup, type Generate } from "../images/helpers.js";
import { replaceFile, temporaryPath } from "../../src/core/atomic-file.js";

afterAll(async () => {
  await closeSandboxes();
  await removeTemporaries();
});

const BAIT = "bait: must stay as it is\n";

/** A generate tree with one good run done, and a file and a folder outside its output directory. */
async function world(): Promise<{ gen: Generate; out: string; outsideFile: string; outsideDir: string }> {
  const sandbox = await sandboxOf({ products: 30, seed: 3 });
  const gen = await setup(sandbox, { channels: [channel("meta-fr", { gzip: true })] });
  const first = await gen.run();
  const out = first.outputDir;
  const outside = await tempDir();
  const outsideFile = join(outside, "victim.txt");
  await writeFile(outsideFile, BAIT);
  const outsideDir = join(outside, "victim-dir");
  await mkdir(outsideDir);
  return { gen, out, outsideFile, outsideDir };
}

describe("symbolic links in the output directory", () => {
  it("a link at a temporary name: its channel fails with that message, the link's target untouched", async () => {
    const w = await world();
    // The feed, its gzip twin, and its report (a dangling link: O_EXCL never creates through it).
    const planted: [string, string][] = [
      [join(w.out, "meta-fr.csv"), w.outsideFile],
      [join(w.out, "meta-fr.csv.gz"), w.outsideFile],
      [join(w.out, "reports", "meta-fr.csv"), join(w.outsideDir, "created.csv")],
    ];
    for (const [target, to] of planted) {
      const tmp = temporaryPath(target);
      await symlink(to, tmp);
      const run = await w.gen.run();
      expect(run.manifest.channels[0]!.published).toBe(`failed: ${tmp} already exists (a link or file planted at a temporary name?): refusing to write through it`);
      expect(await readFile(w.outsideFile, "utf8")).toBe(BAIT);
      expect(await readdir(w.outsideDir)).toEqual([]);
      await rm(tmp, { force: true });
    }
  });

  it.each(["reports", "history"])("%s/ as a link to another folder: refused before any work", async (dir) => {
    const w = await world();
    await rm(join(w.out, dir), { recursive: true });
    await symlink(w.outsideDir, join(w.out, dir));
    await expect(w.gen.run()).rejects.toMatchObject({ code: "UNSAFE_PATH", message: expect.stringContaining(`${dir} is a symbolic link where a folder should be`) });
    expect(await readdir(w.outsideDir)).toEqual([]);
  });

  it("a feed that is a link: its channel is not published, the link's target untouched", async () => {
    const w = await world();
    await rm(join(w.out, "meta-fr.csv"));
    await symlink(w.outsideFile, join(w.out, "meta-fr.csv"));
    const run = await w.gen.run();
    expect(run.manifest.channels[0]!.published).toMatch(/^failed: .*meta-fr\.csv is a symbolic link where a file should be/);
    expect(await readFile(w.outsideFile, "utf8")).toBe(BAIT);
  });

  it("manifest.json as a link: refused", async () => {
    const w = await world();
    await rm(join(w.out, "manifest.json"));
    await symlink(w.outsideFile, join(w.out, "manifest.json"));
    await expect(replaceFile(join(w.out, "manifest.json"), "{}")).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    expect(await readFile(w.outsideFile, "utf8")).toBe(BAIT);
  });
});
