/**
 * An SFTP server in this process (ssh2's server side) over a local directory, on
 * 127.0.0.1 port 0, with faults the tests switch on: a full disk after some bytes,
 * writes that are never answered (a stalled server). Like ssh2 itself it offers
 * no posix-rename extension, and RENAME refuses an existing target as SFTP v3
 * says: the client's delete-and-rename path is what runs here.
 */
import { closeSync, existsSync, fstatSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";
import ssh2 from "ssh2";

const { Server, utils } = ssh2;
const STATUS = utils.sftp.STATUS_CODE;

export interface SftpFaults {
  /** Writes fail with "no space left" once this many bytes were written in all. */
  fullAfterBytes?: number;
  /** WRITE requests are never answered (the client must time out). */
  stall?: boolean;
}

export interface SftpServer {
  port: number;
  hostKeyFingerprint: string;
  faults: SftpFaults;
  /** Logins tried, with their outcome. */
  logins: { user: string; ok: boolean }[];
  close(): Promise<void>;
}

export async function startSftp(root: string, users: Record<string, string>): Promise<SftpServer> {
  const key = utils.generateKeyPairSync("ed25519");
  const parsed = utils.parseKey(key.private);
  if (parsed instanceof Error) throw parsed;
  const hostKeyFingerprint = `SHA256:${(await import("node:crypto")).createHash("sha256").update((Array.isArray(parsed) ? parsed[0] : parsed).getPublicSSH()).digest("base64").replace(/=+$/, "")}`;
  const faults: SftpFaults = {};
  const logins: SftpServer["logins"] = [];
  let written = 0;
  const local = (path: string) => join(root, normalize(`/${path}`));
  const clients = new Set<{ end(): void }>();
  const server = new Server({ hostKeys: [key.private] }, (client) => {
    clients.add(client);
    client.on("close", () => clients.delete(client));
    client.on("error", () => {});
    client.on("authentication", (ctx) => {
      const ok = ctx.method === "password" && users[ctx.username] === ctx.password;
      if (ctx.method !== "none") logins.push({ user: ctx.username, ok });
      if (ok) ctx.accept();
      else ctx.reject(["password"]);
    });
    client.on("ready", () => {
      client.on("session", (accept) => {
        accept().on("sftp", (acceptSftp) => {
          const sftp = acceptSftp();
          const handles = new Map<number, number>();
          let next = 0;
          const fd = (handle: Buffer) => handles.get(handle.readUInt32BE(0));
          const attrsOf = (path: string) => {
            const s = statSync(path);
            return { mode: s.mode, uid: s.uid, gid: s.gid, size: s.size, atime: Math.floor(s.atimeMs / 1000), mtime: Math.floor(s.mtimeMs / 1000) };
          };
          sftp.on("REALPATH", (id, path) => sftp.name(id, [{ filename: normalize(`/${path}`), longname: path, attrs: {} as never }]));
          const stat = (id: number, path: string) => (existsSync(local(path)) ? sftp.attrs(id, attrsOf(local(path))) : sftp.status(id, STATUS.NO_SUCH_FILE));
          sftp.on("STAT", stat);
          sftp.on("LSTAT", stat);
          sftp.on("OPEN", (id, filename, flags) => {
            const mode = utils.sftp.flagsToString(flags) ?? "r";
            try {
              const h = next++;
              handles.set(h, openSync(local(filename), mode));
              const handle = Buffer.alloc(4);
              handle.writeUInt32BE(h, 0);
              sftp.handle(id, handle);
            } catch {
              sftp.status(id, STATUS.FAILURE);
            }
          });
          sftp.on("WRITE", (id, handle, offset, data) => {
            if (faults.stall) return;
            const f = fd(handle);
            if (f === undefined) return sftp.status(id, STATUS.FAILURE);
            if (faults.fullAfterBytes !== undefined && written + data.length > faults.fullAfterBytes) return sftp.status(id, STATUS.FAILURE, "No space left on device");
            writeSync(f, data, 0, data.length, offset);
            written += data.length;
            sftp.status(id, STATUS.OK);
          });
          sftp.on("FSTAT", (id, handle) => {
            const f = fd(handle);
            if (f === undefined) return sftp.status(id, STATUS.FAILURE);
            const s = fstatSync(f);
            sftp.attrs(id, { mode: s.mode, uid: s.uid, gid: s.gid, size: s.size, atime: 0, mtime: 0 });
          });
          sftp.on("CLOSE", (id, handle) => {
            const h = handle.readUInt32BE(0);
            const f = handles.get(h);
            if (f !== undefined) closeSync(f);
            handles.delete(h);
            sftp.status(id, STATUS.OK);
          });
          sftp.on("REMOVE", (id, path) => {
            try {
              unlinkSync(local(path));
              sftp.status(id, STATUS.OK);
            } catch {
              sftp.status(id, STATUS.NO_SUCH_FILE);
            }
          });
          sftp.on("RENAME", (id, from, to) => {
            if (existsSync(local(to))) return sftp.status(id, STATUS.FAILURE, "target exists");
            try {
              renameSync(local(from), local(to));
              sftp.status(id, STATUS.OK);
            } catch {
              sftp.status(id, STATUS.FAILURE);
            }
          });
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hostKeyFingerprint,
    faults,
    logins,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Connections left open (a stalled test) would keep close() waiting.
        for (const c of clients) c.end();
      }),
  };
}
