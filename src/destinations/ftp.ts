/**
 * FTP, and explicit FTPS with `secure` (basic-ftp): idealo's and Microsoft
 * Advertising's upload accounts, shared hosting. The file goes to a hidden
 * temporary name beside the target, then RNFR/RNTO into place; where the server
 * refuses to rename over an existing file (IIS), the old one is renamed aside
 * just before and removed after (put back if the rename is refused, so a server
 * that refuses renames keeps the previous file). SIZE then reads back what was stored.
 * Temporaries are listed in the ledger while they exist: one a killed or cut push left
 * is removed on the next login.
 */
import { createReadStream } from "node:fs";
import { Client, FTPError } from "basic-ftp";
import { classifyNetwork, remotePath } from "./_common.js";
import type { FtpDestination } from "./settings.js";
import { DestinationFailure, type Driver, type DriverContext, type Stored, temporaryName, type UploadItem, where } from "./types.js";

export const kind = "ftp";

function failure(error: unknown, target: string): DestinationFailure {
  if (error instanceof DestinationFailure) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof FTPError) {
    // 530: not logged in; 452/552: no room (insufficient storage, quota exceeded).
    if (error.code === 530) return new DestinationFailure("auth", `${target}: login refused: ${message}`, { cause: error });
    return new DestinationFailure("refused", `${target}: ${message}`, { cause: error });
  }
  const network = classifyNetwork(error) ?? "network";
  // A reset in the middle of a transfer is how ftp-srv, vsftpd and others end one they cannot store.
  // Node says the same cut three ways by the race between socket and stream (a reset, "Premature
  // close", EPIPE "This socket has been ended by the other party"): one reason in words for all.
  const code = (error as { code?: unknown }).code;
  if (network === "network" && (code === "ECONNRESET" || code === "ERR_STREAM_PREMATURE_CLOSE" || code === "EPIPE")) {
    return new DestinationFailure("network", `${target}: the server reset the connection (${message}): the network, or a server that could not store the file (full disk, quota)`, { cause: error });
  }
  return new DestinationFailure(network, `${target}: ${message}`, { cause: error });
}

export function createFtp(options: FtpDestination, context: DriverContext): Driver {
  const target = `${options.secure ? "ftps" : "ftp"}://${options.user}@${options.host}:${options.port}/${options.dir === "." ? "" : options.dir.replace(/^\//, "")}`;
  // basic-ftp's timeout is of silence on the control and data sockets: a slow server fails, a large file does not.
  const client = new Client(options.timeoutMs);
  /** Temporaries this driver started (the ledger's other entries of this process are another driver's). */
  const mine = new Set<string>();

  async function connected(): Promise<Client> {
    if (!client.closed) return client;
    await login();
    for (const path of context.ledger.pending(target, mine)) {
      // 550: already gone; anything else (a cut) leaves it listed for the next login.
      const gone = await client.remove(path).then(() => true, (error: unknown) => error instanceof FTPError && error.code === 550);
      if (gone) await context.ledger.finished(target, path);
    }
    return client;
  }

  async function login(): Promise<void> {
    await client.access({
      host: options.host,
      port: options.port,
      user: options.user,
      password: options.password,
      secure: options.secure,
      ...(options.secure ? { secureOptions: { rejectUnauthorized: !options.allowSelfSigned } } : {}),
    });
  }

  async function replace(ftp: Client, from: string, to: string, name: string): Promise<void> {
    let refused: FTPError;
    try {
      await ftp.rename(from, to);
      return;
    } catch (error) {
      // 550 on RNTO: some servers (IIS) do not rename over an existing file; some refuse renames.
      if (!(error instanceof FTPError) || error.code !== 550) throw error;
      refused = error;
    }
    // Aside, not removed: where renames are refused, the previous file must stay.
    const aside = remotePath(options.dir, temporaryName(name, "previous"));
    await ftp.rename(to, aside).catch(() => Promise.reject(refused));
    try {
      await ftp.rename(from, to);
    } catch (error) {
      await ftp.rename(aside, to).catch(() => {});
      throw error;
    }
    mine.add(aside);
    await context.ledger.started(target, aside);
    await ftp.remove(aside).then(() => context.ledger.finished(target, aside), () => {});
  }

  async function put(item: UploadItem): Promise<Stored> {
    const final = remotePath(options.dir, item.name);
    const temporary = options.atomic ? remotePath(options.dir, temporaryName(item.name)) : final;
    const named = where(target, item.name);
    try {
      const ftp = await connected();
      if (temporary !== final) {
        mine.add(temporary);
        await context.ledger.started(target, temporary);
      }
      try {
        await ftp.uploadFrom(createReadStream(item.local), temporary);
        // Checked before the rename: a short write must never take the target's place.
        const sent = await ftp.size(temporary);
        if (sent !== item.bytes) throw new DestinationFailure("verify", `${named}: the server holds ${sent} of ${item.bytes} bytes after the upload (a full disk or a quota?)`);
        if (temporary !== final) await replace(ftp, temporary, final, item.name);
        if (temporary !== final) await context.ledger.finished(target, temporary);
      } catch (error) {
        // A data connection the server dropped (a full disk) often takes the control connection with it: log in again to clean up.
        if (temporary !== final) {
          if (!client.closed) await ftp.remove(temporary).then(() => context.ledger.finished(target, temporary), () => {});
          else await connected().catch(() => {});
        }
        throw error;
      }
      const bytes = await ftp.size(final);
      if (bytes !== item.bytes) throw new DestinationFailure("verify", `${named}: stored ${bytes} bytes, the local file has ${item.bytes}`);
      return { bytes };
    } catch (error) {
      client.close();
      throw failure(error, named);
    }
  }

  return {
    target,
    put,
    close: async () => {
      // One more login, only to remove what a cut attempt left (bounded by the timeout; a dead server keeps them).
      if (client.closed && context.ledger.pending(target, mine).length > 0) await connected().catch(() => {});
      client.close();
    },
  };
}
