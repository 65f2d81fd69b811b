/**
 * Loose ends a shop manager tripped on (issue 34.8), with the built CLI: serve started by npm
 * (npx, npm start) stops when that npm process goes away instead of keeping port 8080 forever,
 * and a sandbox started on a port still in use says so in one line.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ensureBuilt, killAll, runCli, waitFor } from "../e2e/cli.js";
import { removeTemporaries, writeConfig } from "../e2e/config.js";

beforeAll(() => ensureBuilt());
afterAll(async () => {
  killAll();
  await removeTemporaries();
});

describe("serve started by npm follows it", () => {
  it("the npm process (here a shell standing for it) killed: serve logs why and exits 0, the port is free", async () => {
    const tree = await writeConfig({ channels: [{ name: "a", preset: "generic-ndjson", locale: "fr", link: { template: "https://shop.example/p/{{id}}" } }] });
    const { mkdir, readFile } = await import("node:fs/promises");
    await mkdir(tree.outputDir, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, npm_command: "exec" };
    delete env["NODE_OPTIONS"];
    // `; true` keeps the shell alive as serve's parent (a lone command would be exec'ed in its place).
    const shell = spawn("sh", ["-c", `"${process.execPath}" "${CLI}" serve --config "${tree.configFile}" --port 0 2>"${tree.root}/serve.log"; true`], { env, stdio: "ignore" });
    let log = "";
    const read = async () => (log = await readFile(`${tree.root}/serve.log`, "utf8").catch(() => ""));
    let url = "";
    await waitFor(() => {
      void read();
      url = /serving url=(\S+)/.exec(log)?.[1] ?? "";
      return url !== "" || log.includes("pharmafeed:");
    }, "serve to listen");
    expect(url, log).not.toBe("");
    const port = Number(new URL(url).port);
    shell.kill("SIGKILL");
    await waitFor(() => {
      void read();
      return log.includes("stopped");
    }, "serve to stop");
    expect(log).toContain('signal="parent process gone (started by npm)"');
    // The port is free again: a new listener gets it.
    const probe = createServer();
    await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(port, "127.0.0.1", resolve));
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
});

describe("sandbox on a port in use", () => {
  it("one line naming the port and what to do, no stack", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const result = await runCli(["sandbox", "--port", String(port), "--products", "5"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toBe(`pharmafeed: CONFIG_INVALID: cannot listen on 127.0.0.1:${port}: EADDRINUSE: the port is in use (a sandbox or serve that is still stopping frees it in a moment); or choose another with --port\n`);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });
});
