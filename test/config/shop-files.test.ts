/**
 * Which files of a `shops` folder are shops (src/config/shops.ts shopFiles): `.json` in any
 * case, never a hidden file (an editor's lock, a sync tool's), in name order.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Problems } from "../../src/config/parse.js";
import { shopFiles } from "../../src/config/shops.js";

const roots: string[] = [];
afterAll(() => Promise.all(roots.map((r) => rm(r, { recursive: true, force: true }))));

async function folder(names: Record<string, string | { link: string }>): Promise<{ main: string; dir: string }> {
  const root = await mkdtemp(join(tmpdir(), "pharmafeed-shop-files-"));
  roots.push(root);
  const dir = join(root, "shops");
  await mkdir(dir);
  for (const [name, content] of Object.entries(names)) {
    if (typeof content === "string") await writeFile(join(dir, name), content);
    else await symlink(content.link, join(dir, name));
  }
  return { main: join(root, "pharmafeed.json"), dir };
}

describe("the shop files of a folder", () => {
  it("takes .json in any case, in name order, and leaves out hidden files and other extensions", async () => {
    const { main, dir } = await folder({
      "nord.json": "{}",
      "SUD.JSON": "{}",
      "centre.Json": "{}",
      // emacs' lock of nord.json: a dangling link named like a shop file.
      ".#nord.json": { link: "root@host.1234:1700000000" },
      ".syncthing.ouest.json.tmp": "{}",
      "README.md": "# shops",
      "ouest.json.bak": "{}",
    });
    const problems = new Problems();
    const files = await shopFiles(main, "shops", problems);
    expect(problems.lines).toEqual([]);
    expect(files).toEqual(["SUD.JSON", "centre.Json", "nord.json"].map((n) => join(dir, n)));
  });

  it("a folder of hidden files only holds no shop file: the main file's problem", async () => {
    const { main, dir } = await folder({ ".#alpha.json": { link: "nowhere" } });
    const problems = new Problems();
    expect(await shopFiles(main, "shops", problems)).toEqual([]);
    expect(problems.lines).toEqual([`${main}: shops: ${dir} holds no shop file (*.json)`]);
  });
});
