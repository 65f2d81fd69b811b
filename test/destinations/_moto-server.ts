/**
 * moto's S3 server (Python, `moto_server`, on the machine image with its Flask
 * extras) on 127.0.0.1 port 0, in its own process, with one bucket.
 *
 * Why beside s3rver: moto keeps an object as S3 does. It reads a PUT's whole
 * body before it stores anything, so a PUT cut midway leaves the previous object
 * (s3rver opens the object's file for writing when the PUT starts, so a cut one
 * leaves the new bytes that had arrived, and a full disk leaves a truncated
 * object and an unhandled ENOSPC error in s3rver's process). With
 * MOTO_S3_DEFAULT_KEY_BUFFER_SIZE=1 every object's bytes live in a temporary
 * file under TMPDIR, so a tmpfs there is a disk that can be full, and an object
 * replaces the previous one only once its bytes are written.
 *
 * moto checks no credentials unless its IAM is set up: any key is accepted.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";

export const MOTO_KEY = { accessKeyId: "MOTOKEY", secretAccessKey: "MOTOSECRET" };

export interface MotoServer {
  port: number;
  close(): Promise<void>;
}

/** The command that starts moto's server, or why there is none. */
export function motoCommand(): { command: string[] } | { reason: string } {
  for (const command of [["moto_server"], ["python3", "-m", "moto.server"]]) {
    const probe = spawnSync(command[0]!, [...command.slice(1), "--help"], { encoding: "utf8" });
    if (probe.status === 0 && /--port/.test(probe.stdout)) return { command };
  }
  return { reason: "moto's S3 server is not installed (neither `moto_server` nor `python3 -m moto.server` runs; pip package moto[server])" };
}

/** Starts moto with its objects' bytes under `tmpdir` and creates `bucket`. */
export async function startMoto(command: string[], tmpdir: string, bucket: string): Promise<MotoServer> {
  const child: ChildProcess = spawn(command[0]!, [...command.slice(1), "-H", "127.0.0.1", "-p", "0"], {
    env: { ...process.env, TMPDIR: tmpdir, MOTO_S3_DEFAULT_KEY_BUFFER_SIZE: "1", PYTHONUNBUFFERED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = once(child, "exit");
  let said = "";
  const port = await new Promise<number>((resolve, reject) => {
    const listen = (chunk: Buffer) => {
      said += chunk.toString();
      const found = /Running on http:\/\/127\.0\.0\.1:(\d+)/.exec(said);
      if (found) resolve(Number(found[1]));
    };
    child.stdout!.on("data", listen);
    child.stderr!.on("data", listen);
    child.once("exit", (code) => reject(new Error(`moto_server exited (${code}) before listening: ${said}`)));
  });
  // Its request log goes on; read and dropped, so a full pipe never blocks it.
  child.stdout!.resume();
  child.stderr!.resume();
  const client = new S3Client({ region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true, credentials: { ...MOTO_KEY } });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    port,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}
