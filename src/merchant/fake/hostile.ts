/**
 * Hostile answers of the fake, each one a way Google (or what stands between) once held a
 * run: a nextPageToken that repeats, a products.list or a token endpoint that never
 * answers, a reply of the wrong type (`{"products": {}}`), a page of hundreds of MB.
 * A test sets `api.hostile`; the server asks here before answering as Google would.
 */
import type { ServerResponse } from "node:http";
import { ok, pageToken, type Reply } from "./reply.js";

export type Hostile =
  | { kind: "repeat-page-token" }
  | { kind: "silent-products" }
  | { kind: "silent-token" }
  | { kind: "products-object" }
  /** A page of `bytes` bytes, streamed without Content-Length (so only counting the bytes can stop it). */
  | { kind: "huge-page"; bytes: number };

/** A reply that never comes (the connection stays open until the server closes). */
export const NEVER = new Promise<Reply>(() => {});

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Writes the huge page; stops as soon as the client drops the connection. Resolves with the bytes written. */
async function hugePage(res: ServerResponse, bytes: number): Promise<number> {
  res.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
  const item = `{"name":"accounts/1/products/fr~FR~X","offerId":"X","contentLanguage":"fr","feedLabel":"FR","pad":"${"x".repeat(60_000)}"},`;
  let written = 0;
  res.write('{"products":[');
  while (written < bytes && !res.destroyed) {
    written += item.length;
    if (!res.write(item)) await drainOrClose(res);
  }
  if (!res.destroyed) res.end('{"offerId":"Y","name":"n","contentLanguage":"fr","feedLabel":"FR"}]}');
  return written;
}

/** The hostile answer to products.list, or undefined to answer as Google does. */
export function hostileProducts(hostile: Hostile | undefined, onHuge: (written: Promise<number>) => void): Promise<Reply> | Reply | undefined {
  switch (hostile?.kind) {
    case "repeat-page-token":
      // A page of nothing whose token always points at the same next page.
      return ok({ products: [], nextPageToken: pageToken(1000, "products") });
    case "silent-products":
      return NEVER;
    case "products-object":
      return ok({ products: {} });
    case "huge-page":
      return { status: 200, body: undefined, raw: (res) => onHuge(hugePage(res, hostile.bytes)) };
    default:
      return undefined;
  }
}
