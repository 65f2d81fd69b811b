/**
 * The built CLI (`node dist/cli.js serve`) as systemd runs it: SIGTERM during
 * a slow download lets it finish and exits 0; past the grace period the
 * download is cut and the process still exits 0.
 */
import { request, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, killAll, startCli, waitFor, type RunningCli } from "../e2e/cli.js";
import { removeTemporaries, writeConfig } from "../e2e/config.js";
import { ndjson, publishAll, sha256 } from "./hand-made.js";

beforeAll(() => ensureBuilt());
afterAll(async () => {
  killAll();
  await removeTemporaries();
});

const BIG = ndjson(160_000, "v1"); // 16 MB: far more than the socket buffers hold

async function startServe(main: Record<string, unknown> = {}): Promise<{ cli: RunningCli; url: string }> {
  const tree = await writeConfig({
    channels: [{ name: "big", preset: "generic-ndjson", locale: "fr", link: { template: "https://shop.example/p/{{id}}" } }],
    main,
  });
  await publishAll(tree.outputDir, [{ name: "big", file: "big.ndjson", content: BIG }]);
  const cli = startCli(["serve", "--config", tree.configFile, "--port", "0"]);
  let url = "";
  await waitFor(() => {
    url = /serving url=(\S+)/.exec(cli.stderr())?.[1] ?? "";
    return url !== "" || cli.child.exitCode !== null;
  }, "serve to listen");
  expect(url, cli.stderr()).not.toBe("");
  return { cli, url };
}

/** Starts a download, takes its first chunk and stops reading. */
function pausedDownload(url: string): Promise<{ res: IncomingMessage; first: Buffer }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    request({ host: u.hostname, port: u.port, path: "/feeds/big.ndjson", agent: false }, (res) => {
      res.once("data", (first: Buffer) => {
        res.pause();
        resolve({ res, first });
      });
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

function rest(res: IncomingMessage, first: Buffer): Promise<{ body: Buffer; complete: boolean }> {
  const chunks = [first];
  return new Promise((resolve) => {
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => resolve({ body: Buffer.concat(chunks), complete: res.complete }));
    res.on("close", () => resolve({ body: Buffer.concat(chunks), complete: res.complete }));
    res.resume();
  });
}

const connects = (url: string) =>
  new Promise<boolean>((resolve) => {
    const u = new URL(url);
    request({ host: u.hostname, port: u.port, path: "/healthz", agent: false }, (res) => {
      res.resume();
      resolve(true);
    })
      .on("error", () => resolve(false))
      .end();
  });

describe("serve and SIGTERM", () => {
  it("lets a slow download finish, stops accepting, exits 0", async () => {
    // The grace period far beyond the test's: the download is held paused by the test, however slow the machine.
    const { cli, url } = await startServe({ serve: { shutdownGraceMs: 600_000 } });
    const { res, first } = await pausedDownload(url);
    cli.child.kill("SIGTERM");
    await waitFor(() => cli.stderr().includes("shutting down"), "the shutdown to begin");
    expect(await connects(url)).toBe(false); // no new connections
    // Still serving the download: the rest of it arrives whole (a server that had exited would cut it).
    const { body, complete } = await rest(res, first);
    expect(complete).toBe(true);
    expect(sha256(body)).toBe(sha256(BIG));
    const result = await cli.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/GET \/feeds\/big\.ndjson status=200 channel=big bytes=16\d{6}/);
    expect(result.stderr).toContain("stopped");
  });

  it("cuts a download still running after the grace period, and exits 0", async () => {
    const { cli, url } = await startServe({ serve: { shutdownGraceMs: 300 } });
    const { res, first } = await pausedDownload(url);
    cli.child.kill("SIGTERM");
    const result = await cli.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("grace period over");
    const { body, complete } = await rest(res, first);
    expect(complete).toBe(false);
    expect(body.length).toBeLessThan(BIG.length);
    expect(result.stderr).toMatch(/status=200 channel=big bytes=\d+ .*aborted=true/);
  });
});
