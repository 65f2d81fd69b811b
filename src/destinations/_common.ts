/** Helpers the destination kinds share: failure classes of socket errors, S3's ETag of a local file. */
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { posix } from "node:path";
import type { FailureCode } from "./types.js";

const NETWORK = new Set(["ERR_NOT_CONNECTED", "ECONNREFUSED", "ECONNRESET", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ECONNABORTED", "ERR_STREAM_PREMATURE_CLOSE"]);

/** timeout or network for a socket-level error, anywhere in its cause chain; undefined otherwise. */
export function classifyNetwork(error: unknown): FailureCode | undefined {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === "string" ? e.code : "";
    if (code === "ETIMEDOUT" || code === "ESOCKETTIMEDOUT" || /timed? ?out/i.test(String(e.message ?? ""))) return "timeout";
    // ssh2-sftp-client says "Unexpected end event" (or close) when the connection goes in the middle of a request.
    if (NETWORK.has(code) || /socket hang up|connection (closed|lost|reset)|not connected|ended by other party|unexpected (end|close) event|no sftp connection/i.test(String(e.message ?? ""))) return "network";
  }
  return undefined;
}

/**
 * The ETag S3 gives an object uploaded from this file: the MD5 of its bytes for a
 * single PUT (at most partSize bytes, as lib-storage sends it), else the MD5 of the
 * parts' MD5s followed by "-<parts>"; and the whole file's MD5 (s3rver's multipart ETag).
 */
export async function expectedEtag(file: string, bytes: number, partSize: number): Promise<{ etag: string; md5: string }> {
  const handle = await open(file, "r");
  try {
    const whole = createHash("md5");
    const parts: Buffer[] = [];
    const buffer = Buffer.alloc(Math.min(partSize, 2 ** 20));
    let part = createHash("md5");
    let inPart = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, partSize - inPart), null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      whole.update(chunk);
      part.update(chunk);
      inPart += bytesRead;
      if (inPart === partSize) {
        parts.push(part.digest());
        part = createHash("md5");
        inPart = 0;
      }
    }
    const md5 = whole.digest("hex");
    if (bytes <= partSize) return { etag: md5, md5 };
    if (inPart > 0) parts.push(part.digest());
    return { etag: `${createHash("md5").update(Buffer.concat(parts)).digest("hex")}-${parts.length}`, md5 };
  } finally {
    await handle.close();
  }
}

/** A remote path inside `dir` ("." is the login directory). */
export function remotePath(dir: string, name: string): string {
  return dir === "." || dir === "" ? name : posix.join(dir, name);
}
