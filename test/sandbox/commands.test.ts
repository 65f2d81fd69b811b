/** The sandbox command: flag mapping, option checks, the banner. (demo: test/commands/demo.test.ts) */
import { afterEach, describe, expect, it, vi } from "vitest";
import { banner, checkedOptions, curlLine, sandboxOptionsFromArgs, type SandboxArgs } from "../../src/commands/sandbox.js";
import { isPharmafeedError } from "../../src/errors.js";
import { startSandbox } from "../../src/sandbox/index.js";

const args: SandboxArgs = { host: "127.0.0.1", port: 0, products: 10, seed: 3, "rate-limit": 100, "rate-window-ms": 60000, log: false, "drop-after-lines": 5, "chunk-bytes": 1, "key-id": "me" };

afterEach(() => vi.restoreAllMocks());

describe("sandbox command", () => {
  it("maps flags to SandboxOptions, faults only when given", () => {
    expect(sandboxOptionsFromArgs(args)).toEqual({
      host: "127.0.0.1", port: 0, products: 10, seed: 3, keyId: "me", rateLimit: 100, rateWindowMs: 60000, log: false,
      faults: { dropAfterLines: 5, chunkBytes: 1 },
    });
  });

  it("turns an out-of-range flag into a USAGE error naming the option", () => {
    try {
      checkedOptions(sandboxOptionsFromArgs({ ...args, "fail-status": 404 }));
      expect.unreachable();
    } catch (error) {
      expect(isPharmafeedError(error, "USAGE")).toBe(true);
      expect((error as Error).message).toContain("faults.failStatus");
    }
  });

  it("prints the URL, both keys and a curl line that works", async () => {
    const handle = await startSandbox({ products: 5 });
    try {
      const text = banner(handle, 5, 1);
      expect(text).toContain(handle.url);
      expect(text).toContain("demo-basic / demo-basic-secret");
      const line = curlLine(handle);
      const body = /-d '([^']+)'/.exec(line)?.[1] as string;
      const res = await fetch(`${handle.url}/v4/products/stream`, { method: "POST", headers: { authorization: "Basic " + Buffer.from(`${handle.keyId}:${handle.keySecret}`).toString("base64"), "content-type": "application/json" }, body });
      expect(res.status).toBe(200);
      expect((await res.text()).split("\n").length).toBeGreaterThan(1);
    } finally {
      await handle.close();
    }
  });
});
