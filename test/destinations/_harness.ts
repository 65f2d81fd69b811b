/**
 * One harness per destination kind for the conformance suite: a real server on
 * 127.0.0.1 (s3rver, an ssh2 SFTP server, ftp-srv), the config that reaches it,
 * and how to read back what it holds (through its own directory, or S3 GET).
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { DestinationConfig } from "../../src/destinations/settings.js";
import { DestinationConfig as Schema } from "../../src/destinations/settings.js";
import { startFtp, type FtpFaults } from "./_ftp-server.js";
import { startProxy, type Proxy } from "./_proxy.js";
import { S3_KEY, startS3 } from "./_s3-server.js";
import { startSftp, type SftpFaults } from "./_sftp-server.js";

export const SECRET = "s3cr3t-MARKER-7f1c";

export interface Remote {
  kind: DestinationConfig["kind"];
  /** A config through the proxy (faults the server cannot make), with overrides. */
  config(overrides?: Record<string, unknown>): DestinationConfig;
  /** The stored bytes under `name`, or undefined. */
  read(name: string): Promise<Buffer | undefined>;
  /** Every name in the remote directory (temporary ones included). */
  names(): Promise<string[]>;
  /** Server-side faults (full disk, stall); undefined where the server has none. */
  faults?: SftpFaults & FtpFaults;
  proxy: Proxy;
  close(): Promise<void>;
}

const BUCKET = "feeds";

export async function startRemote(kind: DestinationConfig["kind"]): Promise<Remote> {
  const dir = await mkdtemp(join(tmpdir(), `pf-dest-${kind}-`));
  const base = { name: "remote", retries: 0, retryDelayMs: 0, timeoutMs: 30_000 };
  if (kind === "s3") {
    const server = await startS3(dir, BUCKET);
    const proxy = await startProxy(server.port);
    const endpoint = `http://127.0.0.1:${proxy.port}`;
    const reader = new S3Client({ region: "us-east-1", endpoint: `http://127.0.0.1:${server.port}`, forcePathStyle: true, credentials: { ...S3_KEY }, requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" });
    return {
      kind,
      proxy,
      config: (o = {}) => Schema.parse({ kind, ...base, endpoint, bucket: BUCKET, prefix: "shop/feeds", forcePathStyle: true, ...S3_KEY, cacheControl: "public, max-age=300", ...o }),
      read: async (name) => {
        try {
          const got = await reader.send(new GetObjectCommand({ Bucket: BUCKET, Key: `shop/feeds/${name}` }));
          return Buffer.from(await got.Body!.transformToByteArray());
        } catch {
          return undefined;
        }
      },
      names: async () => [],
      close: async () => {
        reader.destroy();
        await proxy.close();
        await server.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const server = kind === "sftp" ? await startSftp(dir, { feeds: SECRET }) : await startFtp(dir, { feeds: SECRET });
  const proxy = await startProxy(server.port);
  return {
    kind,
    proxy,
    faults: server.faults,
    config: (o = {}) => Schema.parse({ kind, ...base, host: "127.0.0.1", port: kind === "sftp" ? proxy.port : server.port, user: "feeds", password: SECRET, ...o }),
    read: (name) => readFile(join(dir, name)).catch(() => undefined),
    names: () => readdir(dir),
    close: async () => {
      await proxy.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
