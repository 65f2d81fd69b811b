/**
 * An FTP server (ftp-srv) over a local directory on 127.0.0.1 port 0, with an
 * optional TLS certificate (explicit FTPS), and faults in its file system: a full
 * disk after some bytes, the connection dropped mid-upload, a stalled write,
 * renames refused (all, or over an existing file as IIS does): 550 on RNTO.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { AddressInfo } from "node:net";
import { FileSystem, FtpSrv, type FtpConnection } from "ftp-srv";

export interface FtpFaults {
  fullAfterBytes?: number;
  dropAfterBytes?: number;
  stall?: boolean;
  renames?: "refused" | "not-over-existing";
}

export interface FtpServer {
  port: number;
  faults: FtpFaults;
  close(): Promise<void>;
}

class FaultyFileSystem extends FileSystem {
  constructor(
    connection: FtpConnection,
    root: string,
    private readonly faults: FtpFaults,
  ) {
    super(connection, { root, cwd: "/" });
  }

  override rename(from: string, to: string): ReturnType<FileSystem["rename"]> {
    if (this.faults.renames === "refused") throw new Error("Renaming files is not allowed here");
    if (this.faults.renames === "not-over-existing" && existsSync(join(this.root, `/${to}`))) throw new Error("Cannot create a file when that file already exists");
    return super.rename(from, to);
  }

  override write(fileName: string, options?: { append?: boolean; start?: unknown }): ReturnType<FileSystem["write"]> {
    const real = super.write(fileName, options) as unknown as { stream: Writable; clientPath: string };
    const { faults } = this;
    const connection = this.connection as unknown as { commandSocket: { destroy(): void }; connector: { socket?: { destroy(): void } } };
    let seen = 0;
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (faults.stall) return;
        seen += chunk.length;
        if (faults.fullAfterBytes !== undefined && seen > faults.fullAfterBytes) return done(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" }));
        if (faults.dropAfterBytes !== undefined && seen > faults.dropAfterBytes) {
          connection.connector.socket?.destroy();
          connection.commandSocket.destroy();
          return;
        }
        real.stream.write(chunk, done);
      },
      final(done) {
        real.stream.end(done);
      },
    });
    stream.on("error", () => real.stream.destroy());
    return { stream, clientPath: real.clientPath } as unknown as ReturnType<FileSystem["write"]>;
  }
}

/** ftp-srv logs through a bunyan-like object; the tests' output stays clean with one that says nothing. */
const quiet = { child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

export async function startFtp(root: string, users: Record<string, string>, tls?: { key: string; cert: string }): Promise<FtpServer> {
  const faults: FtpFaults = {};
  const server = new FtpSrv({ url: "ftp://127.0.0.1:0", pasv_url: "127.0.0.1", pasv_min: 20000, anonymous: false, greeting: "test", tls: tls ?? false, log: quiet as never });
  server.on("login", ({ connection, username, password }, resolve, reject) => {
    if (users[username] === password) resolve({ fs: new FaultyFileSystem(connection, root, faults) });
    else reject(new Error("bad login"));
  });
  server.on("client-error", () => {});
  await server.listen();
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
  return { port, faults, close: () => server.close() as Promise<void> };
}
