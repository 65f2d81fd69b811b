/**
 * SFTP (ssh2-sftp-client): Google Merchant Center's partnerupload.google.com:19321,
 * Microsoft Advertising, any OpenSSH server. The file goes to a hidden temporary
 * name beside the target, then into place with the POSIX rename extension (atomic
 * replace, OpenSSH's posix-rename@openssh.com); on a server without it, a plain
 * SFTP rename (which SFTP v3 servers refuse over an existing file), else the old
 * target is renamed aside, the new one renamed into place at once (the narrowest
 * window the protocol allows) and the old one removed; if the server refuses that
 * second rename the old one is put back, so a server that refuses renames never
 * loses the previous file. The size the server reports is then checked. A temporary
 * that a failed attempt could not remove (its connection was cut, the process was
 * killed) is listed in the ledger and removed over the next connection: the retry's,
 * one made for it when the driver closes, or the next push's.
 *
 * The bytes go with fastPut (ssh2's pipelined writes: 32 requests of 128 KB in flight),
 * from the published file: put() of a stream waits for each write's answer and ran
 * ~135x slower than OpenSSH's `sftp` (bench/destinations.ts). fastPut sets the file's
 * mode with fchmod after opening: `mode` (0644 by default), never 0666.
 */
import { createHash } from "node:crypto";
import SftpClient from "ssh2-sftp-client";
import { classifyNetwork, remotePath } from "./_common.js";
import type { SftpDestination } from "./settings.js";
import { DestinationFailure, type Driver, type DriverContext, type Stored, temporaryName, type UploadItem, where } from "./types.js";

export const kind = "sftp";

function fingerprint(key: Buffer): string {
  return `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}

/** SSH_FX_FAILURE (4): OpenSSH's answer to a write that failed on its side, a full disk or a quota most often. */
const SSH_FX_FAILURE = 4;

function failure(error: unknown, target: string): DestinationFailure {
  if (error instanceof DestinationFailure) return error;
  // ssh2-sftp-client repeats the local and remote paths after the server's words: the target says where already.
  const message = (error instanceof Error ? error.message : String(error)).replace(/ Local: .* Remote: .*$/s, "");
  if ((error as { code?: unknown }).code === SSH_FX_FAILURE && /^(_?fastPut|put)\b/.test(message)) {
    return new DestinationFailure("refused", `${target}: the server refused a write ("Failure": its disk is full or a quota is reached, most often)`, { cause: error });
  }
  if (/authentication methods failed|permission denied \(publickey/i.test(message)) {
    return new DestinationFailure("auth", `${target}: login refused: ${message}`, { cause: error });
  }
  // ssh2 says "Host denied (verification failed)" when hostVerifier refuses the server's key.
  if (/host key|host denied/i.test(message)) return new DestinationFailure("auth", `${target}: host key refused: ${message}`, { cause: error });
  return new DestinationFailure(classifyNetwork(error) ?? "refused", `${target}: ${message}`, { cause: error });
}

/**
 * 4 MB in flight, in writes of 128 KB: fewer, larger requests than ssh2's default (64 x 32 KB) cost
 * less JavaScript per byte (bench/destinations.ts: about 1.5x faster on OpenSSH). ssh2 splits a
 * write larger than the server allows (OpenSSH says its limit; others get 34,000 bytes).
 */
const WINDOW = { chunkSize: 128 * 1024, concurrency: 32 };

/** ssh2-sftp-client's default event callbacks print to stdout and stderr ("Global end listener: ..."); its constructor takes ours. */
const QUIET = { error: () => {}, end: () => {}, close: () => {} };

export function createSftp(options: SftpDestination, context: DriverContext): Driver {
  const target = `sftp://${options.user}@${options.host}:${options.port}/${options.dir === "." ? "" : options.dir.replace(/^\//, "")}`;
  const mode = Number.parseInt(options.mode, 8);
  let client: SftpClient | undefined;
  /** Temporaries this driver started (the ledger's other entries of this process are another driver's). */
  const mine = new Set<string>();
  if (!options.hostKey) context.warn(`${target}: no hostKey set, so any server answering at ${options.host}:${options.port} gets the login; set "hostKey" to the fingerprint ssh-keygen -lf prints for the server's key`);

  /** Removes the temporaries the ledger lists for this target (an earlier attempt's or an earlier push's); ones still there stay listed. */
  async function sweep(sftp: SftpClient): Promise<void> {
    for (const path of context.ledger.pending(target, mine)) {
      const gone = await sftp.delete(path, true).then(() => true, () => false);
      if (gone) await context.ledger.finished(target, path);
    }
  }

  async function connected(): Promise<SftpClient> {
    if (client) return client;
    const fresh = new SftpClient("pharmafeed", QUIET);
    await fresh.connect({
      host: options.host,
      port: options.port,
      username: options.user,
      ...(options.password !== undefined ? { password: options.password } : {}),
      ...(options.privateKey !== undefined ? { privateKey: options.privateKey } : {}),
      ...(options.passphrase !== undefined ? { passphrase: options.passphrase } : {}),
      ...(options.hostKey ? { hostVerifier: (key: Buffer) => fingerprint(key) === options.hostKey!.replace(/=$/, "") } : {}),
      readyTimeout: options.timeoutMs,
      // A server that stops answering mid-upload is found by the watchdog below; keepalives catch a dead peer.
      keepaliveInterval: Math.max(1000, Math.floor(options.timeoutMs / 3)),
      keepaliveCountMax: 3,
      retries: 0,
    });
    client = fresh;
    await sweep(fresh);
    return fresh;
  }

  /** Drops the connection (a failed attempt starts afresh). */
  async function drop(): Promise<void> {
    const old = client;
    client = undefined;
    await old?.end().catch(() => {});
  }

  /**
   * Runs `work`, failing it when nothing moved for timeoutMs: ssh2 has no timeout of its own once
   * connected, and a request the server never answers stays pending even after the connection ends.
   */
  async function watched<T>(work: (touch: () => void) => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let expire: (error: DestinationFailure) => void = () => {};
    const expired = new Promise<never>((_, reject) => (expire = reject));
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => expire(new DestinationFailure("timeout", `${target}: no progress for ${options.timeoutMs} ms`)), options.timeoutMs);
    };
    touch();
    const running = work(touch);
    running.catch(() => {});
    try {
      return await Promise.race([running, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function replace(sftp: SftpClient, from: string, to: string, name: string): Promise<void> {
    try {
      await sftp.posixRename(from, to);
      return;
    } catch (error) {
      if (!/does not support/i.test(error instanceof Error ? error.message : String(error))) throw error;
    }
    try {
      await sftp.rename(from, to);
      return;
    } catch (error) {
      if (!(await sftp.exists(to))) throw error;
    }
    // Aside, not removed: a server that refuses renames (or this one) must not cost the previous file.
    const aside = remotePath(options.dir, temporaryName(name, "previous"));
    await sftp.rename(to, aside);
    try {
      await sftp.rename(from, to);
    } catch (error) {
      await sftp.rename(aside, to).catch(() => {});
      throw error;
    }
    mine.add(aside);
    await context.ledger.started(target, aside);
    await sftp.delete(aside, true).then(() => context.ledger.finished(target, aside), () => {});
  }

  async function put(item: UploadItem): Promise<Stored> {
    const final = remotePath(options.dir, item.name);
    const temporary = options.atomic ? remotePath(options.dir, temporaryName(item.name)) : final;
    const named = where(target, item.name);
    try {
      return await watched(async (touch) => {
        const sftp = await connected();
        touch();
        if (temporary !== final) {
          mine.add(temporary);
          await context.ledger.started(target, temporary);
        }
        try {
          await sftp.fastPut(item.local, temporary, { mode, step: touch, ...WINDOW });
          touch();
          // Checked before the rename: a write the server refused must never take the target's place.
          const sent = (await sftp.stat(temporary)).size;
          if (sent !== item.bytes) throw new DestinationFailure("verify", `${named}: the server holds ${sent} of ${item.bytes} bytes after the upload (a full disk or a quota?)`);
          if (temporary !== final) await replace(sftp, temporary, final, item.name);
          if (temporary !== final) await context.ledger.finished(target, temporary);
        } catch (error) {
          if (temporary !== final && client) await sweep(sftp);
          throw error;
        }
        const stat = await sftp.stat(final);
        if (stat.size !== item.bytes) throw new DestinationFailure("verify", `${named}: stored ${stat.size} bytes, the local file has ${item.bytes}`);
        return { bytes: stat.size };
      });
    } catch (error) {
      await drop();
      throw failure(error, named);
    }
  }

  async function close(): Promise<void> {
    // One more connection, only to remove what a failed attempt left (bounded like any attempt; a dead server keeps them).
    if (context.ledger.pending(target, mine).length > 0 && !client) await watched(() => connected()).catch(() => {});
    await drop();
  }

  return { target, put, close };
}
