/** What an endpoint handler gets and returns. */
import type { Catalogue } from "../generate/catalogue.js";
import type { Wire } from "../generate/types.js";
import type { ApiKey } from "../server/auth.js";
import type { JsonReply } from "../server/errors.js";
import type { StreamReply } from "../server/stream.js";

export interface EmptyReply {
  kind: "empty";
  status: number;
}

export type Reply = JsonReply | EmptyReply | StreamReply;

/** Records created through users/create and organizations/create (kept per server). */
export interface Created {
  users: Wire[];
  organizations: Wire[];
}

export interface RequestContext {
  body: unknown;
  key: ApiKey;
  url: URL;
  catalogue: Catalogue;
  created: Created;
}

export type Handler = (ctx: RequestContext) => Reply;

export function json(body: unknown, status = 200): JsonReply {
  return { kind: "json", status, body };
}
