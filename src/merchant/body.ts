/**
 * A reply's body read with a byte cap: refused by its Content-Length before a byte is
 * read, or as soon as the bytes received pass the cap (the connection is then dropped).
 * A 700 MB page was once read whole seven times over, and ended as "Cannot create a
 * string longer than ...": now it is refused once, in words, and never asked again.
 */
import type { Readable } from "node:stream";
import { PharmafeedError } from "../errors.js";

const mb = (bytes: number): string => `${Math.round((bytes / 2 ** 20) * 10) / 10} MB`;

function tooLarge(what: string, size: string, maxBytes: number, status: number): PharmafeedError {
  return new PharmafeedError("MERCHANT_HTTP", `${what}: the reply is ${size}, more than the ${mb(maxBytes)} a reply may have: refused, not asked again this run`, {
    context: { status, tooLarge: true },
  });
}

export async function readCapped(body: Readable, headers: Record<string, string | string[] | undefined>, maxBytes: number, what: string, status: number): Promise<string> {
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    throw tooLarge(what, mb(declared), maxBytes, status);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    bytes += buffer.length;
    if (bytes > maxBytes) {
      body.destroy();
      throw tooLarge(what, `over ${mb(maxBytes)}`, maxBytes, status);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, bytes).toString("utf8");
}
