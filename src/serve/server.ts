/**
 * `pharmafeed serve` as a library: a node:http server over an output
 * directory. start() reads the manifest and the saved fetch state, then
 * listens; close() stops accepting, lets downloads in progress finish within a
 * grace period (then cuts them), saves the state and closes every file.
 * A config of many shops: shops.ts, the same site mounted once per shop.
 */
import type { Server } from "node:http";
import { silentLogger } from "../log.js";
import { listen, listenOrClose } from "./listen.js";
import { loggablePath, parseTarget } from "./paths.js";
import { openSite, type ServeOptions } from "./site.js";

export type { ServeOptions } from "./site.js";

export interface FeedServer {
  readonly server: Server;
  /** http://host:port, once listening. */
  readonly url: string;
  close(graceMs?: number): Promise<void>;
  /** Runs the stale-feeds check now (it also runs on its timer); of every shop, for many. */
  checkStale(): Promise<void>;
}

export async function startServer(options: ServeOptions & { host?: string; port?: number }): Promise<FeedServer> {
  const logger = options.logger ?? silentLogger;
  const site = await openSite(options);
  const redact = site.tokens.redact;
  const listening = await listenOrClose(site, () => listen(
    {
      redact,
      answer: (req, res, record) => {
        const target = parseTarget(req.url);
        record.path = loggablePath(req.url, target, redact);
        return site.answer(req, res, target, record);
      },
    },
    { host: options.host, port: options.port, logger, accessLog: options.accessLog ?? silentLogger },
  ));
  let closed: Promise<void> | undefined;
  const close = (graceMs = 30_000): Promise<void> =>
    (closed ??= (async () => {
      await listening.close(graceMs);
      await site.close();
    })());
  return { server: listening.server, url: listening.url, close, checkStale: () => site.checkStale() };
}
