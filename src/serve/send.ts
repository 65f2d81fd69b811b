/**
 * Answers GET and HEAD for one representation of a file: 304 when the client's
 * copy is current, 206/416 for a byte range, else 200, with the validators
 * taken from what was checked when the file was opened (live-feeds.ts), so
 * Content-Length and ETag always describe the bytes sent.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream";
import type { SharedFile } from "./shared-file.js";
import { byteRange, httpDate, notModified } from "./validators.js";

export interface Sendable {
  file: SharedFile;
  etag: string;
  lastModified: Date;
  bytes: number;
}

export interface SendOptions {
  contentType: string;
  /** The bytes are the gzip twin of the named resource. */
  contentEncoding?: "gzip";
  cacheControl: string;
  /** The answer depends on Accept-Encoding (a gzip twin exists). */
  varyEncoding: boolean;
  /** Ranges apply to the identity bytes only: never to a negotiated encoding. */
  ranges: boolean;
}

export function sendFile(req: IncomingMessage, res: ServerResponse, rep: Sendable, options: SendOptions): void {
  res.setHeader("ETag", rep.etag);
  res.setHeader("Last-Modified", httpDate(rep.lastModified));
  res.setHeader("Cache-Control", options.cacheControl);
  if (options.varyEncoding) res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (notModified(req.headers, rep.etag, rep.lastModified)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader("Content-Type", options.contentType);
  if (options.contentEncoding) res.setHeader("Content-Encoding", options.contentEncoding);
  if (options.ranges) res.setHeader("Accept-Ranges", "bytes");
  const range = options.ranges ? byteRange(req.headers, rep.bytes, rep.etag, rep.lastModified) : ({ kind: "full" } as const);
  if (range.kind === "unsatisfiable") {
    res.statusCode = 416;
    res.setHeader("Content-Range", `bytes */${rep.bytes}`);
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end("range not satisfiable\n");
    return;
  }
  const [start, end] = range.kind === "partial" ? [range.start, range.end] : [0, rep.bytes - 1];
  if (range.kind === "partial") {
    res.statusCode = 206;
    res.setHeader("Content-Range", `bytes ${start}-${end}/${rep.bytes}`);
  }
  res.setHeader("Content-Length", end - start + 1);
  if (req.method === "HEAD" || end < start) {
    res.end();
    return;
  }
  const body = rep.file.stream(start, end);
  // The bytes sent are counted as they are written to the response (access-log.ts countBody).
  // pipeline destroys the file stream when the client goes away (the handle is released then).
  pipeline(body, res, () => {});
}
