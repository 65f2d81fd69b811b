import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AtomicOutput } from "../../src/publish/atomic-output.js";

async function dir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "pharmafeed-out-"));
}

describe("AtomicOutput", () => {
  it("keeps the previous file until publish, then replaces it whole, with its gzip twin", async () => {
    const d = await dir();
    const target = join(d, "feed.xml");
    await writeFile(target, "previous");
    const out = new AtomicOutput(target, { gzip: true, blockSize: 1024 });
    const parts: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const line = `<item>${i} é 😀</item>\n`;
      parts.push(line);
      const pending = out.write(line);
      if (pending) await pending;
    }
    const stats = await out.finish();
    expect(await readFile(target, "utf8")).toBe("previous");
    await out.publish();
    const expected = Buffer.from(parts.join(""), "utf8");
    const written = await readFile(target);
    expect(written.equals(expected)).toBe(true);
    expect(stats.bytes).toBe(expected.length);
    expect(stats.sha256).toBe(createHash("sha256").update(expected).digest("hex"));
    expect(gunzipSync(await readFile(`${target}.gz`)).equals(expected)).toBe(true);
    expect(stats.gzip?.bytes).toBe((await readFile(`${target}.gz`)).length);
    expect((await readdir(d)).sort()).toEqual(["feed.xml", "feed.xml.gz"]);
  });

  it("abort leaves the previous files and no temporary file", async () => {
    const d = await dir();
    const target = join(d, "feed.csv");
    await writeFile(target, "previous");
    const out = new AtomicOutput(target, { gzip: true });
    out.write("half a feed");
    await out.abort();
    expect(await readFile(target, "utf8")).toBe("previous");
    expect(await readdir(d)).toEqual(["feed.csv"]);
  });

  it("reports a write failure as WRITE_FAILED", async () => {
    const out = new AtomicOutput(join("/nonexistent-dir-pharmafeed", "feed.xml"));
    out.write("x");
    await expect(out.finish()).rejects.toMatchObject({ code: "WRITE_FAILED" });
    await out.abort();
  });
});
