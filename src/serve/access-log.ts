/**
 * One line per request, written when the response is done (or cut): method,
 * path (every channel token in it, or in the user agent, replaced by <token>), status, channel, body bytes sent,
 * user agent, duration. Plain or JSON through src/log.ts, so a collector reads
 * it like the other commands' logs.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../log.js";

export interface AccessRecord {
  /** Many shops: the shop whose path was asked for (shops.ts). */
  shop?: string;
  /** Known once the route resolves the file to a channel. */
  channel?: string;
  /** Body bytes handed to the socket (countBody). */
  bytes: number;
  path: string;
}

function byteLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === "string") return Buffer.byteLength(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

/**
 * Counts into record.bytes every body byte the answer hands to the socket, whoever writes it
 * (a feed's stream, a page, a report, a JSON body, a refusal's text): at the one place all
 * of them pass, so no route can forget to. A HEAD answer has no body (node drops what is written).
 */
export function countBody(req: IncomingMessage, res: ServerResponse, record: AccessRecord): void {
  if (req.method === "HEAD") return;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  // end(chunk) writes its chunk without going through write() (node's OutgoingMessage): both counted, never twice.
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    record.bytes += byteLength(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== "function") record.bytes += byteLength(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as typeof res.end;
}

/** `redact`: takes the channel tokens out of any text (paths.ts tokenRedactor). */
export function logWhenDone(logger: Logger, req: IncomingMessage, res: ServerResponse, record: AccessRecord, startedNs: bigint, redact: (text: string) => string = (t) => t): void {
  res.once("close", () => {
    const ms = Number(process.hrtime.bigint() - startedNs) / 1e6;
    logger.info(`${req.method ?? "?"} ${record.path}`, {
      status: res.statusCode,
      shop: record.shop,
      channel: record.channel,
      bytes: record.bytes,
      ms: Math.round(ms * 10) / 10,
      ua: redact(req.headers["user-agent"] ?? "").slice(0, 300),
      ip: req.socket.remoteAddress,
      // The client left before the last byte: a cut download, not a served one.
      aborted: res.writableFinished ? undefined : true,
    });
  });
}
