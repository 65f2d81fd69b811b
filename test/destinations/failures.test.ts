/**
 * How failures read: one line each, in words, the cause said once. An S3 server
 * (here a loopback HTTP server) answering 500 with a multi-line HTML page gives one
 * line naming the status and what came back, not the SDK's XML parse error; one
 * server down for three channels is one problem naming them; and nothing but our
 * own lines reaches stdout or stderr (ssh2-sftp-client's "Global ... listener"
 * lines, the SDK's logger) while an SFTP server drops the connection.
 */
import { createHash } from "node:crypto";
import { createServer as createHttp } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer as createTcp, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type PushJob, pushChannels } from "../../src/destinations/push.js";
import { DestinationConfig } from "../../src/destinations/settings.js";
import { silentLogger } from "../../src/log.js";

/** A proxy's error page, its tags mismatched as real ones are: the SDK's XML parser fails on it. */
const PAGE = "<html>\n<head><title>500 Internal Server Error</title></head>\n<body>\n<h1>No space left on device<br></h1>\n</body>\n</html>\n";

let local: string;
const servers: { close(cb: () => void): unknown }[] = [];
beforeAll(async () => {
  local = await mkdtemp(join(tmpdir(), "pf-dest-failures-"));
  await writeFile(join(local, "feed.xml"), "<feed/>\n");
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  await rm(local, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

async function listening<T extends Server | ReturnType<typeof createHttp>>(server: T): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

function jobs(channels: string[], destination: Record<string, unknown>): PushJob[] {
  const bytes = Buffer.byteLength("<feed/>\n");
  const sha256 = createHash("sha256").update("<feed/>\n").digest("hex");
  return channels.map((channel) => ({
    channel,
    files: [{ local: join(local, "feed.xml"), name: `${channel}.xml`, bytes, sha256, contentType: "application/xml" }],
    destinations: [DestinationConfig.parse({ name: "remote", retries: 0, retryDelayMs: 0, timeoutMs: 10_000, ...destination })],
    last: [],
  }));
}

describe("destination failures in words", () => {
  it("an S3 server answering 500 with an HTML page: one line with the status and what came back, once for three channels", async () => {
    const port = await listening(createHttp((_req, res) => res.writeHead(500, { "content-type": "application/xml" }).end(PAGE)));
    const s3 = { kind: "s3", endpoint: `http://127.0.0.1:${port}`, bucket: "feeds", forcePathStyle: true, accessKeyId: "AKIDEXAMPLE", secretAccessKey: "example-secret-key" };
    const { problems, records } = await pushChannels(jobs(["google-fr", "meta-fr", "kelkoo-fr"], s3), { logger: silentLogger });
    expect(problems).toHaveLength(1);
    const [problem] = problems;
    expect(problem!.channel).toBeUndefined();
    expect(problem!.reason).toMatch(/^upload to remote failed for 3 channels \(google-fr, meta-fr, kelkoo-fr\): s3:\/\/feeds\/google-fr\.xml at 127\.0\.0\.1:\d+: the server answered HTTP 500 with a page that is not S3's XML/);
    expect(problem!.reason).not.toMatch(/\n|Deserialization|XML parse/);
    // Each channel's record still says why, on one line.
    for (const record of [...records.values()].flat()) expect(record.reason).not.toMatch(/\n/);
  });

  it("an SFTP server that drops every connection: one problem, and no line from a library on stdout or stderr", async () => {
    const port = await listening(createTcp((socket) => socket.destroy()));
    const out = vi.spyOn(process.stdout, "write");
    const err = vi.spyOn(process.stderr, "write");
    const log = vi.spyOn(console, "log");
    const error = vi.spyOn(console, "error");
    const { problems } = await pushChannels(jobs(["google-fr", "google-nl"], { kind: "sftp", host: "127.0.0.1", port, user: "feeds", password: "${unused}" }), { logger: silentLogger });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.reason).toMatch(/^upload to remote failed for 2 channels \(google-fr, google-nl\): sftp:\/\/feeds@127\.0\.0\.1:\d+\/google-fr\.xml: /);
    expect(problems[0]!.code).toBe("DESTINATION_NETWORK");
    for (const spy of [out, err, log, error]) expect(spy.mock.calls.map((c) => String(c[0])).filter((l) => /Global|listener|smithy/.test(l))).toEqual([]);
  });

  it("a stop during the wait before a retry ends the push at once: the file not sent, said as interrupted", async () => {
    let answered = 0;
    const port = await listening(
      createHttp((_req, res) => {
        answered++;
        res.writeHead(503, { "content-type": "application/xml" }).end("<Error><Code>SlowDown</Code><Message>busy</Message></Error>");
      }),
    );
    const s3 = { kind: "s3", endpoint: `http://127.0.0.1:${port}`, bucket: "feeds", forcePathStyle: true, accessKeyId: "AKIDEXAMPLE", secretAccessKey: "example-secret-key" };
    const controller = new AbortController();
    const warned: string[] = [];
    // The first failure's retry waits ten minutes; the stop comes as soon as that wait is announced.
    const logger = { ...silentLogger, warn: (message: string) => (warned.push(message), controller.abort()) };
    const [job] = jobs(["google-fr"], { ...s3, retries: 3, retryDelayMs: 600_000 });
    const { problems, records } = await pushChannels([job!], { logger, signal: controller.signal });
    expect(warned).toContain("upload failed, retrying");
    expect(problems.map((p) => p.code)).toEqual(["DESTINATION_INTERRUPTED"]);
    expect(records.get("google-fr")?.[0]).toMatchObject({ ok: false, code: "interrupted" });
    expect(records.get("google-fr")?.[0]?.reason).toMatch(/google-fr\.xml: not sent, the run was stopped before the next attempt/);
    expect(answered).toBeGreaterThan(0);
  });
});
