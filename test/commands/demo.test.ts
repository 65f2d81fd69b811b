/** `npm start` (the demo command): the sample config, against an in-process sandbox, into a fresh output directory. */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { demoCommand } from "../../src/commands/demo.js";
import { Manifest } from "../../src/publish/manifest.js";

describe("demo command (npm start)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("generates every sample channel from the sandbox and prints the summary and the files", async () => {
    const output = await mkdtemp(join(tmpdir(), "pharmafeed-demo-"));
    let out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const run = demoCommand.handler as (a: object) => Promise<void>;
    await run({ config: "config/pharmafeed.json", products: 400, seed: 1, output, "log-format": "plain" });

    const manifest = Manifest.parse(JSON.parse(await readFile(join(output, "manifest.json"), "utf8")));
    expect(manifest.channels).toHaveLength(11);
    for (const channel of manifest.channels) {
      expect(channel.published, channel.name).toBe(true);
      expect(channel.items, channel.name).toBeGreaterThan(0);
      expect((await readFile(join(output, channel.file))).length).toBe(channel.bytes);
      expect(out).toContain(`${channel.file}`);
    }
    expect(new Set(manifest.channels.map((c) => c.preset)).size).toBe(11);
    expect(new Set(manifest.channels.map((c) => c.locale))).toEqual(new Set(["fr", "nl"]));
    expect(out).toMatch(/channel\s+items\s+excluded/);
    expect(out).toContain("curl -u demo:demo-secret-not-for-production");
  });
});
