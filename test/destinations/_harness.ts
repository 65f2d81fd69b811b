/**
 * One harness per test server for the conformance suite: a real server on
 * 127.0.0.1 (s3rver, moto, an ssh2 SFTP server, OpenSSH's sftp-server, ftp-srv),
 * the config that reaches it through a cutting proxy, how to read back what it
 * holds (its directory, or S3 GET and LIST), and its faults, each made the way
 * that server allows: the proxy, the server's own fault switches, or a tmpfs
 * that is really full.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import type { DestinationConfig } from "../../src/destinations/settings.js";
import { DestinationConfig as Schema } from "../../src/destinations/settings.js";
import { startFtp } from "./_ftp-server.js";
import { MOTO_KEY, motoCommand, startMoto } from "./_moto-server.js";
import { sftpServerBinary, startOpensshSftp } from "./_openssh-sftp-server.js";
import { startProxy, type Proxy } from "./_proxy.js";
import { S3_KEY, startS3 } from "./_s3-server.js";
import { startSftp } from "./_sftp-server.js";
import { mountTmpfs, type Tmpfs } from "./_tmpfs.js";

export const SECRET = "s3cr3t-MARKER-7f1c";

export const SERVERS = ["s3rver", "moto", "ssh2", "openssh", "ftp-srv"] as const;
export type ServerName = (typeof SERVERS)[number];
export const KIND_OF: Record<ServerName, DestinationConfig["kind"]> = { s3rver: "s3", moto: "s3", ssh2: "sftp", openssh: "sftp", "ftp-srv": "ftp" };

/** Why this server cannot run on this machine (a program missing), or undefined. */
export function unavailable(server: ServerName): string | undefined {
  const found = server === "openssh" ? sftpServerBinary() : server === "moto" ? motoCommand() : undefined;
  return found && "reason" in found ? found.reason : undefined;
}

export interface Remote {
  server: ServerName;
  kind: DestinationConfig["kind"];
  /** A config through the proxy (faults the server cannot make), with overrides. */
  config(overrides?: Record<string, unknown>): DestinationConfig;
  /** The stored bytes under `name`, straight from the server (not through the proxy), or undefined. */
  read(name: string): Promise<Buffer | undefined>;
  /** Every name in the remote directory or under the prefix (temporary ones included). */
  names(): Promise<string[]>;
  /** S3: the headers an object is served with. */
  head?: (name: string) => Promise<{ contentType?: string; contentEncoding?: string; cacheControl?: string }>;
  proxy: Proxy;
  /** Cut an upload's connection once this many of its bytes went (undefined: never). */
  cutAfter(bytes: number | undefined): void;
  /** The server stops answering (or answers again). */
  stall(on: boolean): void;
  /**
   * S3 only: a byte of each upload, at this offset of its connection, changed on the way (a faulty
   * middlebox; plain HTTP). SFTP's MAC would end the connection; FTP's data connections bypass the proxy.
   */
  corruptAt?: (offset: number | undefined) => void;
  /** Makes the remote disk full; resolves to the undo. Absent where the server cannot be given a full disk: see `noDisk`. */
  fillDisk?: () => Promise<() => Promise<void>>;
  noDisk?: string;
  /**
   * What the server holds under a name whose upload was cut: "previous" (S3, GCS, R2, MinIO, moto; a
   * temporary name and a rename on SFTP and FTP) or "partial" (s3rver writes an object in place: a defect
   * of that test server, which the client cannot mend; it can only report the failure and send again).
   */
  afterCut: "previous" | "partial";
  /** False where the server accepts any credentials (moto without IAM). */
  checksCredentials: boolean;
  close(): Promise<void>;
}

const BUCKET = "feeds";
const PREFIX = "shop/feeds/";
const BASE = { name: "remote", retries: 0, retryDelayMs: 0, timeoutMs: 30_000 };

async function withTmpfs(dir: string, bytes: number): Promise<{ tmpfs?: Tmpfs; noDisk?: string }> {
  const mounted = await mountTmpfs(dir, bytes);
  return "reason" in mounted ? { noDisk: mounted.reason } : { tmpfs: mounted };
}

export async function startRemote(server: ServerName): Promise<Remote> {
  const kind = KIND_OF[server];
  const dir = await mkdtemp(join(tmpdir(), `pf-dest-${server}-`));
  if (kind === "s3") {
    // moto's objects live in temporary files on a tmpfs of 64 MB (the multipart test's 12 MB feed fits twice).
    const disk = server === "moto" ? await withTmpfs(dir, 64 * 2 ** 20) : { noDisk: "s3rver writes an object in place (a full disk truncates the old one) and leaves the ENOSPC error unhandled, which would end the test process: moto's run covers a full disk" };
    const command = server === "moto" ? motoCommand() : undefined;
    const started = command && "command" in command ? await startMoto(command.command, dir, BUCKET) : await startS3(dir, BUCKET);
    const key = server === "moto" ? MOTO_KEY : S3_KEY;
    const proxy = await startProxy(started.port);
    const endpoint = `http://127.0.0.1:${proxy.port}`;
    const reader = new S3Client({ region: "us-east-1", endpoint: `http://127.0.0.1:${started.port}`, forcePathStyle: true, credentials: { ...key }, requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" });
    return {
      server,
      kind,
      proxy,
      config: (o = {}) => Schema.parse({ kind, ...BASE, endpoint, bucket: BUCKET, prefix: PREFIX, forcePathStyle: true, ...key, cacheControl: "public, max-age=300", ...o }),
      read: async (name) => {
        try {
          const got = await reader.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}${name}` }));
          return Buffer.from(await got.Body!.transformToByteArray());
        } catch {
          return undefined;
        }
      },
      head: async (name) => {
        const got = await reader.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}${name}` }));
        return { contentType: got.ContentType, contentEncoding: got.ContentEncoding, cacheControl: got.CacheControl };
      },
      names: async () => {
        const listed = await reader.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: PREFIX }));
        return (listed.Contents ?? []).map((o) => o.Key!.slice(PREFIX.length));
      },
      cutAfter: (bytes) => void (proxy.cutAfterBytes = bytes),
      stall: (on) => void (proxy.stall = on),
      corruptAt: (offset) => void (proxy.corruptAt = offset),
      ...(disk.tmpfs ? { fillDisk: disk.tmpfs.fill } : { noDisk: disk.noDisk }),
      afterCut: server === "moto" ? "previous" : "partial",
      checksCredentials: server !== "moto",
      close: async () => {
        reader.destroy();
        await proxy.close();
        await started.close();
        await disk.tmpfs?.unmount();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  if (server === "openssh") {
    // A tmpfs of 8 MB is the login directory: a full disk is the kernel's ENOSPC to sftp-server.
    const disk = await withTmpfs(dir, 8 * 2 ** 20);
    const binary = sftpServerBinary();
    if (!("path" in binary)) throw new Error(binary.reason);
    const started = await startOpensshSftp(binary.path, dir, { feeds: SECRET });
    const proxy = await startProxy(started.port);
    return {
      server,
      kind,
      proxy,
      config: (o = {}) => Schema.parse({ kind, ...BASE, host: "127.0.0.1", port: proxy.port, user: "feeds", password: SECRET, ...o }),
      read: (name) => readFile(join(dir, name)).catch(() => undefined),
      names: async () => (await readdir(dir)).filter((n) => !n.startsWith(".filler-")),
      cutAfter: (bytes) => void (proxy.cutAfterBytes = bytes),
      stall: (on) => void (proxy.stall = on),
      ...(disk.tmpfs ? { fillDisk: disk.tmpfs.fill } : { noDisk: disk.noDisk }),
      afterCut: "previous",
      checksCredentials: true,
      close: async () => {
        await proxy.close();
        await started.close();
        await disk.tmpfs?.unmount();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const started = kind === "sftp" ? await startSftp(dir, { feeds: SECRET }) : await startFtp(dir, { feeds: SECRET });
  const { faults } = started;
  const proxy = await startProxy(started.port);
  return {
    server,
    kind,
    proxy,
    // FTP's data connections go straight to the server (its PASV address): the server drops them itself.
    config: (o = {}) => Schema.parse({ kind, ...BASE, host: "127.0.0.1", port: kind === "sftp" ? proxy.port : started.port, user: "feeds", password: SECRET, ...o }),
    read: (name) => readFile(join(dir, name)).catch(() => undefined),
    names: () => readdir(dir),
    cutAfter: (bytes) => {
      if (kind === "ftp") (faults as { dropAfterBytes?: number }).dropAfterBytes = bytes;
      else proxy.cutAfterBytes = bytes;
    },
    stall: (on) => void (faults.stall = on),
    // These servers fail every write past the limit themselves, with the error a full disk gives.
    fillDisk: async () => {
      faults.fullAfterBytes = 0;
      return async () => void delete faults.fullAfterBytes;
    },
    afterCut: "previous",
    checksCredentials: true,
    close: async () => {
      await proxy.close();
      await started.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
