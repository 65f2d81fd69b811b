/**
 * FTP, and explicit FTPS with `secure` (basic-ftp): idealo's and Microsoft
 * Advertising's upload accounts, shared hosting. The file goes to a hidden
 * temporary name beside the target, then RNFR/RNTO into place; where the server
 * refuses to rename over an existing file (IIS), the old one is renamed aside
 * just before and removed after (put back if the rename is refused, so a server
 * that refuses renames keeps the previous file). SIZE then reads back what was stored.
 */
import { createReadStream } from "node:fs";
import { Client, FTPError } from "basic-ftp";
import { classifyNetwork, remotePath } from "./_common.js";
import type { FtpDestination } from "./settings.js";
import { DestinationFailure, type Driver, type Stored, temporaryName, type UploadItem } from "./types.js";

export const kind = "ftp";

function failure(error: unknown, target: string): DestinationFailure {
  if (error instanceof DestinationFailure) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof FTPError) {
    // 530: not logged in; 452/552: no room (insufficient storage, quota exceeded).
    if (error.code === 530) return new DestinationFailure("auth", `${target}: login refused: ${message}`, { cause: error });
    return new DestinationFailure("refused", `${target}: ${message}`, { cause: error });
  }
  return new DestinationFailure(classifyNetwork(error) ?? "network", `${target}: ${message}`, { cause: error });
}

export function createFtp(options: FtpDestination): Driver {
  const target = `${options.secure ? "ftps" : "ftp"}://${options.user}@${options.host}:${options.port}/${options.dir === "." ? "" : options.dir.replace(/^\//, "")}`;
  // basic-ftp's timeout is of silence on the control and data sockets: a slow server fails, a large file does not.
  const client = new Client(options.timeoutMs);

  async function connected(): Promise<Client> {
    if (!client.closed) return client;
    await client.access({
      host: options.host,
      port: options.port,
      user: options.user,
      password: options.password,
      secure: options.secure,
      ...(options.secure ? { secureOptions: { rejectUnauthorized: !options.allowSelfSigned } } : {}),
    });
    return client;
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
    await ftp.remove(aside, true);
  }

  async function put(item: UploadItem): Promise<Stored> {
    const final = remotePath(options.dir, item.name);
    const temporary = options.atomic ? remotePath(options.dir, temporaryName(item.name)) : final;
    try {
      const ftp = await connected();
      try {
        await ftp.uploadFrom(createReadStream(item.local), temporary);
        // Checked before the rename: a short write must never take the target's place.
        const sent = await ftp.size(temporary);
        if (sent !== item.bytes) throw new DestinationFailure("verify", `${target}${item.name}: the server holds ${sent} of ${item.bytes} bytes after the upload`);
        if (temporary !== final) await replace(ftp, temporary, final, item.name);
      } catch (error) {
        // A data connection the server dropped (a full disk) often takes the control connection with it: log in again to clean up.
        if (temporary !== final) await connected().then((again) => again.remove(temporary, true)).catch(() => {});
        throw error;
      }
      const bytes = await ftp.size(final);
      if (bytes !== item.bytes) throw new DestinationFailure("verify", `${target}${item.name}: stored ${bytes} bytes, the local file has ${item.bytes}`);
      return { bytes };
    } catch (error) {
      client.close();
      throw failure(error, target);
    }
  }

  return {
    target,
    put,
    close: async () => client.close(),
  };
}
