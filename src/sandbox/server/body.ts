/**
 * Reads and parses a JSON request body. An empty body reads as `undefined`
 * (endpoints whose body is optional treat it as {}). Size-capped so a garbage
 * upload cannot exhaust memory.
 */
import type { IncomingMessage } from "node:http";
import { errorReply, type JsonReply } from "./errors.js";

export const MAX_BODY_BYTES = 1024 * 1024;

export type BodyResult = { ok: true; value: unknown } | { ok: false; reply: JsonReply };

export async function readJsonBody(req: IncomingMessage): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  }
  if (tooLarge) return { ok: false, reply: errorReply("bodyTooLarge", `The request body exceeds ${MAX_BODY_BYTES} bytes.`) };
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return { ok: true, value: undefined };
  const type = req.headers["content-type"];
  if (type !== undefined && !/^application\/json\b/i.test(type)) {
    return { ok: false, reply: errorReply("unsupportedMediaType", `The body must be JSON (content-type: application/json), got content-type ${type}.`) };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reply: errorReply("invalidJson", `The body is not valid JSON: ${(error as Error).message}`) };
  }
}
