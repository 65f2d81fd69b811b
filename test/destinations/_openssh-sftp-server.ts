/**
 * OpenSSH's own SFTP server behind ssh2's SSH transport, on 127.0.0.1 port 0:
 * ssh2's `Server` does the key exchange and the password check, and each `sftp`
 * subsystem channel is piped to a spawned `sftp-server -d <root>` (Debian's
 * openssh-sftp-server), which speaks SFTP over its stdin and stdout exactly as
 * under sshd. Unlike the in-process ssh2 server it offers OpenSSH's extensions,
 * posix-rename@openssh.com among them. It logs each request at INFO (`-e -l
 * INFO`): `log` holds those lines ("posix-rename old ... new ...", "remove name
 * ...", "rename old ... new ..."), so a test can tell which road a rename took.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import ssh2 from "ssh2";

const { Server, utils } = ssh2;

const CANDIDATES = ["/usr/lib/openssh/sftp-server", "/usr/libexec/openssh/sftp-server", "/usr/lib/sftp-server", "/usr/libexec/sftp-server"];

function found(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path));
}

let located: { path: string } | { reason: string } | undefined;

/**
 * The sftp-server binary; where it is missing and apt-get is there (root on
 * Debian), `apt-get install openssh-sftp-server` first. Otherwise why not.
 */
export function sftpServerBinary(): { path: string } | { reason: string } {
  if (located) return located;
  let path = found();
  let why = "";
  if (!path) {
    const install = (args: string[]) => execFileSync("apt-get", args, { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, stdio: "pipe", timeout: 300_000 });
    try {
      try {
        install(["install", "-y", "-qq", "--no-install-recommends", "openssh-sftp-server"]);
      } catch {
        install(["update", "-qq"]);
        install(["install", "-y", "-qq", "--no-install-recommends", "openssh-sftp-server"]);
      }
    } catch (error) {
      const said = String((error as { stderr?: unknown }).stderr ?? "").trim();
      why = `: apt-get install openssh-sftp-server failed: ${said ? said.split("\n").slice(-2).join(" ") : (error as Error).message}`;
    }
    path = found();
  }
  located = path ? { path } : { reason: `OpenSSH's sftp-server is not installed (looked in ${CANDIDATES.join(", ")})${why}` };
  return located;
}

export interface OpensshSftpServer {
  port: number;
  /** "SHA256:..." as ssh-keygen -lf prints it. */
  hostKeyFingerprint: string;
  /** sftp-server's log lines, of every session so far. */
  log: string[];
  close(): Promise<void>;
}

export interface OpensshOptions {
  /** SFTP requests sftp-server refuses (its -P, names as `sftp-server -Q requests` lists them), e.g. ["rename", "posix-rename"]. */
  denied?: string[];
  /** Public keys (OpenSSH text) that log a user in, beside the password. */
  publicKeys?: Record<string, string>;
}

export async function startOpensshSftp(binary: string, root: string, users: Record<string, string>, options: OpensshOptions = {}): Promise<OpensshSftpServer> {
  const key = utils.generateKeyPairSync("ed25519");
  const parsed = utils.parseKey(key.private);
  if (parsed instanceof Error) throw parsed;
  const publicKey = (Array.isArray(parsed) ? parsed[0] : parsed).getPublicSSH();
  const hostKeyFingerprint = `SHA256:${createHash("sha256").update(publicKey).digest("base64").replace(/=+$/, "")}`;
  const args = ["-e", "-l", "INFO", ...(options.denied?.length ? ["-P", options.denied.join(",")] : []), "-d", root];
  const log: string[] = [];
  const children = new Set<ChildProcess>();
  const clients = new Set<{ end(): void }>();
  const server = new Server({ hostKeys: [key.private] }, (client) => {
    clients.add(client);
    client.on("close", () => clients.delete(client));
    client.on("error", () => {});
    client.on("authentication", (ctx) => {
      if (ctx.method === "password" && users[ctx.username] === ctx.password) return ctx.accept();
      if (ctx.method === "publickey") {
        const allowed = options.publicKeys?.[ctx.username] === undefined ? undefined : utils.parseKey(options.publicKeys[ctx.username]!);
        const key = allowed && !(allowed instanceof Error) ? (Array.isArray(allowed) ? allowed[0] : allowed) : undefined;
        if (key && ctx.key.algo === key.type && ctx.key.data.equals(key.getPublicSSH())) {
          // Without a signature the client only asks whether this key would do; with one, it must verify.
          if (!ctx.signature || key.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true) return ctx.accept();
        }
      }
      ctx.reject(["password", "publickey"]);
    });
    client.on("ready", () => {
      client.on("session", (accept) => {
        // No "sftp" listener: ssh2 then hands the subsystem over as a plain channel.
        accept().on("subsystem", (acceptSubsystem, reject, info) => {
          if (info.name !== "sftp") return reject();
          const channel = acceptSubsystem();
          const child = spawn(binary, args, { stdio: ["pipe", "pipe", "pipe"] });
          children.add(child);
          let partial = "";
          child.stderr!.on("data", (chunk: Buffer) => {
            const lines = (partial + chunk.toString()).split("\n");
            partial = lines.pop() ?? "";
            log.push(...lines);
          });
          channel.pipe(child.stdin!);
          child.stdout!.pipe(channel);
          child.stdin!.on("error", () => {});
          channel.on("error", () => {});
          // The session ends with the channel (sftp-server sees EOF and exits) or with the child.
          channel.on("close", () => child.stdin!.end());
          child.on("exit", () => {
            children.delete(child);
            channel.end();
          });
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hostKeyFingerprint,
    log,
    close: async () => {
      const gone = [...children].map((child) => new Promise((resolve) => child.once("exit", resolve)));
      for (const child of children) child.kill("SIGTERM");
      for (const c of clients) c.end();
      await Promise.all([...gone, new Promise<void>((resolve) => server.close(() => resolve()))]);
    },
  };
}
