/**
 * OpenSSH's own sshd (Debian's openssh-server) on 127.0.0.1, on a free port, with a
 * config of its own in a temporary directory: its host key, one authorized client key
 * for the user running the tests, `Subsystem sftp internal-sftp`. Unlike the ssh2-fronted
 * sftp-server (_openssh-sftp-server.ts) the transport is OpenSSH's too, so the speed of
 * an upload, the mode a file gets and OpenSSH's reference clients (`sftp -b`, `curl -T
 * sftp://`) are what a real server gives. Installed with apt-get where it is missing and
 * can be; otherwise `sshdBinary()` says why and the caller skips.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

const SSHD = "/usr/sbin/sshd";
let located: { path: string } | { reason: string } | undefined;

export function sshdBinary(): { path: string } | { reason: string } {
  if (located) return located;
  let why = "";
  if (!existsSync(SSHD)) {
    const install = (args: string[]) => execFileSync("apt-get", args, { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, stdio: "pipe", timeout: 300_000 });
    try {
      try {
        install(["install", "-y", "-qq", "--no-install-recommends", "openssh-server"]);
      } catch {
        install(["update", "-qq"]);
        install(["install", "-y", "-qq", "--no-install-recommends", "openssh-server"]);
      }
    } catch (error) {
      const said = String((error as { stderr?: unknown }).stderr ?? "").trim();
      why = `: apt-get install openssh-server failed: ${said ? said.split("\n").slice(-2).join(" ") : (error as Error).message}`;
    }
  }
  located = existsSync(SSHD) ? { path: SSHD } : { reason: `OpenSSH's sshd is not installed (${SSHD})${why}` };
  return located;
}

export interface Sshd {
  port: number;
  user: string;
  /** "SHA256:..." as ssh-keygen -lf prints it. */
  hostKeyFingerprint: string;
  /** The client's private key file, and its text (for a destination's privateKey). */
  keyFile: string;
  privateKey: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startSshd(binary: string): Promise<Sshd> {
  const dir = await mkdtemp(join(tmpdir(), "pf-sshd-"));
  const keygen = (file: string) => execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", file], { stdio: "pipe" });
  keygen(join(dir, "host"));
  keygen(join(dir, "client"));
  await writeFile(join(dir, "authorized_keys"), await readFile(join(dir, "client.pub")));
  const fingerprint = execFileSync("ssh-keygen", ["-lf", join(dir, "host.pub")], { encoding: "utf8" }).split(" ")[1]!;
  // sshd refuses to start without its privilege separation directory.
  await mkdir("/run/sshd", { recursive: true }).catch(() => {});
  const port = await freePort();
  const config = [
    `Port ${port}`,
    "ListenAddress 127.0.0.1",
    `HostKey ${join(dir, "host")}`,
    `PidFile ${join(dir, "sshd.pid")}`,
    `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
    "PubkeyAuthentication yes",
    "PasswordAuthentication no",
    "KbdInteractiveAuthentication no",
    "PermitRootLogin prohibit-password",
    "StrictModes no",
    "UsePAM no",
    "Subsystem sftp internal-sftp",
    "LogLevel INFO",
  ];
  await writeFile(join(dir, "sshd_config"), `${config.join("\n")}\n`);
  const child: ChildProcess = spawn(binary, ["-D", "-e", "-f", join(dir, "sshd_config")], { stdio: ["ignore", "ignore", "pipe"] });
  let said = "";
  // sshd says "Server listening on 127.0.0.1 port N." once it accepts connections.
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (/Server listening on/.test(said)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`sshd exited (${code}): ${said.trim()}`)));
  });
  return {
    port,
    user: userInfo().username,
    hostKeyFingerprint: fingerprint,
    keyFile: join(dir, "client"),
    privateKey: await readFile(join(dir, "client"), "utf8"),
    close: async () => {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await gone;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
