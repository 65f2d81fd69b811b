/**
 * GET/HEAD /media/<format>/<hex>.<ext>: the photo bytes, as an image host
 * serves them. Public (no key, no rate limit: real photo URLs sit on a CDN)
 * but, like the media endpoints, refused to a missing or generic User-Agent.
 * Strong ETag and a year of caching, since the URL names the content.
 *
 * Images are encoded on demand and kept in a small LRU bounded by bytes;
 * concurrent requests for the same image share one encoding.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FaultOptions } from "../options.js";
import { DRAWING_VERSION, IMAGE_CONTENT_TYPES, parseImagePath, renderImage, type ImageRequest } from "../images.js";
import { errorReply, serverErrorReply, type JsonReply } from "./errors.js";
import { refusedUserAgent } from "./user-agent.js";

/** Enough for a few hundred huge renditions (a huge JPEG is ~35 KB, a huge frontal PNG ~100 KB). */
export const IMAGE_CACHE_BYTES = 64 * 1024 * 1024;

/** A least-recently-used map of encoded images, bounded by their total size. */
export class ImageLru {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting makes this the most recent.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Buffer): void {
    if (value.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.bytes -= old.length;
    this.entries.delete(key);
    this.entries.set(key, value);
    this.bytes += value.length;
    for (const [oldest, buffer] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= buffer.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

type BrokenImages = FaultOptions["brokenImages"];

function isBroken(hex: string, broken: BrokenImages): boolean {
  if (broken.hexes.includes(hex)) return true;
  return broken.share > 0 && parseInt(hex.slice(-8), 16) / 4294967296 < broken.share;
}

export function imageEtag(request: ImageRequest): string {
  return `"${request.hex.slice(0, 16)}-${request.key}-v${DRAWING_VERSION}"`;
}

function sendJson(res: ServerResponse, reply: JsonReply, head: boolean): number {
  const body = JSON.stringify(reply.body);
  res.writeHead(reply.status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...reply.headers });
  res.end(head ? undefined : body);
  return reply.status;
}

export function createImageHandler(broken: BrokenImages, cacheBytes = IMAGE_CACHE_BYTES) {
  const cache = new ImageLru(cacheBytes);
  const encoding = new Map<string, Promise<Buffer>>();

  function bytesOf(request: ImageRequest): Promise<Buffer> {
    const key = `${request.key}/${request.hex}.${request.kind}`;
    const cached = cache.get(key);
    if (cached) return Promise.resolve(cached);
    let pending = encoding.get(key);
    if (!pending) {
      pending = renderImage(request).then(
        (bytes) => {
          cache.set(key, bytes);
          encoding.delete(key);
          return bytes;
        },
        (error: unknown) => {
          encoding.delete(key);
          throw error;
        },
      );
      encoding.set(key, pending);
    }
    return pending;
  }

  /** Answers one /media/ request; resolves to the status sent. */
  return async function handleImage(req: IncomingMessage, res: ServerResponse, path: string): Promise<number> {
    const head = req.method === "HEAD";
    if (req.method !== "GET" && !head) return sendJson(res, errorReply("methodNotAllowed", `${path} takes GET or HEAD, got ${req.method ?? "?"}.`, undefined, { allow: "GET, HEAD" }), false);
    const request = parseImagePath(path);
    if (!request) return sendJson(res, errorReply("notFound", `No image at ${path}.`), head);
    const refusal = refusedUserAgent(req.headers["user-agent"]);
    if (refusal) return sendJson(res, errorReply("userAgentRequired", refusal), head);
    const fault = isBroken(request.hex, broken) ? broken.mode : undefined;
    if (fault === "404") return sendJson(res, errorReply("notFound", `No image at ${path} (injected fault).`), head);
    if (fault === "500") return sendJson(res, serverErrorReply(500), head);
    const etag = imageEtag(request);
    const headers = { etag, "cache-control": "public, max-age=31536000, immutable" };
    if (req.headers["if-none-match"]?.split(",").some((tag) => tag.trim() === etag)) {
      res.writeHead(304, headers).end();
      return 304;
    }
    let bytes = await bytesOf(request);
    // The format's signature, then noise: what a cut upload or a broken CDN node sends.
    if (fault === "corrupt") bytes = Buffer.concat([bytes.subarray(0, 16), Buffer.alloc(64, 0x5a)]);
    res.writeHead(200, { ...headers, "content-type": IMAGE_CONTENT_TYPES[request.kind], "content-length": bytes.length });
    res.end(head ? undefined : bytes);
    return 200;
  };
}
