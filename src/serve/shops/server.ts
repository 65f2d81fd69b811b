/**
 * `pharmafeed serve` for a config of many shops: one socket, each shop's output folder mounted as
 * a site (site.ts, the one-shop routes) under /<shop>/, the prefix taken off before its routes
 * see the path; at the root the operator's overview (`/`), and /healthz and /monitor of all.
 *
 *   /<shop>/...   ─> the shop's site (feeds, images, its status page, its healthz and monitor)
 *   /             ─> overview.ts, behind the operator's credentials
 *   /healthz, /monitor ─> view.ts, every shop's health in one answer
 *
 * A shop is found by its exact key: a path with anything else in its first segment (encoded,
 * dotted, unknown) is a 404, and what follows goes through parseTarget as for one shop, so no
 * path leaves the shop's folder. A shop whose config was refused when serve started has no
 * access rules: its feeds and page answer 503 (never served openly), its images are served; once
 * a run of it writes a new manifest its config is read again, and served when it loads.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { mkdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { PharmafeedError } from "../../errors.js";
import { silentLogger, type Logger } from "../../log.js";
import { DEFAULT_MAX_FEED_AGE_HOURS, runState } from "../../publish/run-state.js";
import type { Health } from "../health.js";
import { checkBasic } from "../access.js";
import type { AccessRecord } from "../access-log.js";
import { listen, listenOrClose } from "../listen.js";
import { loggablePath, parseTarget, type Target, TokenList } from "../paths.js";
import { json, text } from "../routes.js";
import type { FeedServer } from "../server.js";
import { openSite, type ServeOptions, type Site } from "../site.js";
import { renderOverview } from "./overview.js";
import { firstLine, healthAll, monitorAll, type ShopView } from "./view.js";

export interface ShopsOptions {
  /** The main output folder: each shop's is <outputDir>/<key> (made when missing: a shop without a run yet). */
  outputDir: string;
  /** Every shop whose config loaded, in the main file's order: `options` as for a one-shop server. */
  shops: readonly { id: string; options: ServeOptions }[];
  /** Shops whose config was refused: listed, their images served, nothing else. */
  refused?: readonly { id: string; error: string }[];
  /** The main file's serve.status: the overview, and every shop's status page. Without it `/` answers 404. */
  operator?: { user: string; password: string } | undefined;
  host?: string;
  port?: number;
  logger?: Logger;
  accessLog?: Logger;
  now?: () => Date;
  /** For the refused shops' health (the others have theirs in `options`). */
  maxFeedAgeHours?: number;
  /**
   * A refused shop's config read again, as `shops`' options (throws while it is still refused):
   * tried when a run of that shop writes a new manifest, so that a shop file fixed since serve
   * started is served without a restart.
   */
  retry?: (id: string) => Promise<ServeOptions>;
}

interface Shop {
  id: string;
  name: string;
  /** None for a refused shop without a folder (or whose name is no shop key): nothing to serve. */
  site?: Site;
  /** Refused when serve started (first line). */
  refused?: string;
}

/** config/schema.ts ShopName: a refused shop file may carry any "name", and only a key may become a path. */
const SHOP_KEY = /^[a-z0-9][a-z0-9-]{0,62}$/;

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Log lines of one shop's site say which shop. */
function tagged(logger: Logger, shop: string): Logger {
  return { format: logger.format, info: (m, f) => logger.info(m, { shop, ...f }), warn: (m, f) => logger.warn(m, { shop, ...f }), error: (m, f) => logger.error(m, { shop, ...f }) };
}

/** The first segment of the path, and the rest (from its "/" or "?"). */
function splitShop(url: string): { segment: string; rest: string } {
  const end = url.slice(1).search(/[/?]/);
  return end < 0 ? { segment: url.slice(1), rest: "" } : { segment: url.slice(1, end + 1), rest: url.slice(end + 1) };
}

const HTML_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'" };

export async function startShopsServer(options: ShopsOptions): Promise<FeedServer> {
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? (() => new Date());
  try {
    await realpath(options.outputDir);
  } catch (cause) {
    throw new PharmafeedError("CONFIG_INVALID", `output directory ${options.outputDir} does not exist (run generate first)`, { cause, context: { file: options.outputDir } });
  }
  const tokens = new TokenList();
  const shops = new Map<string, Shop>();
  /** Shops whose config a reload refused (first line), until a later reload reads it. */
  const reloadRefused = new Map<string, string>();
  const open = async (id: string, serve: ServeOptions): Promise<Site> => {
    await mkdir(serve.outputDir, { recursive: true });
    const reload = serve.reloadConfig;
    return openSite(
      {
        ...serve,
        logger: tagged(serve.logger ?? logger, id),
        // Said on the overview until a later run's reload succeeds; the rules known before are kept meanwhile (live-feeds.ts).
        ...(reload && {
          reloadConfig: async () => {
            try {
              const reloaded = await reload();
              reloadRefused.delete(id);
              return reloaded;
            } catch (error) {
              reloadRefused.set(id, firstLine((error as Error).message));
              throw error;
            }
          },
        }),
      },
      { base: `/${id}`, operator: options.operator, tokens },
    );
  };
  const closeAll = async () => {
    await Promise.all([...shops.values()].map((s) => s.site?.close()));
  };
  const maxFeedAgeHours = options.maxFeedAgeHours ?? DEFAULT_MAX_FEED_AGE_HOURS;
  const promoting = new Set<string>();
  /** A refused shop whose config loads now (options.retry): its own site takes the place of the one that served its images. */
  const promote = async (id: string): Promise<void> => {
    const shop = shops.get(id);
    if (!options.retry || !shop || shop.refused === undefined || promoting.has(id)) return;
    promoting.add(id);
    try {
      const serve = await options.retry(id);
      const site = await open(id, { now, ...serve });
      shops.set(id, { id, name: serve.shopName, site });
      logger.info("shop served: its config loads now", { shop: id });
      await shop.site?.close();
    } catch (error) {
      shop.refused = firstLine((error as Error).message);
      logger.warn("shop still not served: its config is refused", { shop: id, error: (error as Error).message });
    } finally {
      promoting.delete(id);
    }
  };
  try {
    for (const { id, options: serve } of options.shops) shops.set(id, { id, name: serve.shopName, site: await open(id, { now, ...serve }) });
    for (const { id, error } of options.refused ?? []) {
      logger.error("shop not served: its config was refused", { shop: id, error });
      // Its folder as the last runs left it (images, health), never made for it: the name may be anything.
      const dir = join(options.outputDir, id);
      // A new manifest of the shop (a run) is when its config is read again: not from within this site's own reload.
      const retry = options.retry
        ? {
            reloadConfig: async () => {
              setImmediate(() => void promote(id));
              return { channels: [] };
            },
          }
        : {};
      const site = SHOP_KEY.test(id) && (await isFolder(dir)) ? await open(id, { outputDir: dir, channels: [], shopName: id, now, maxFeedAgeHours, ...retry }) : undefined;
      shops.set(id, { id, name: id, refused: firstLine(error), ...(site ? { site } : {}) });
    }
  } catch (error) {
    await closeAll();
    throw error;
  }
  const nothing = (): Health => {
    const state = runState(undefined, now(), maxFeedAgeHours);
    return { state, manifest: undefined, feedsServed: 0, body: { status: "no-manifest", feedsServed: 0, summary: state.summary } };
  };
  const order = [...options.shops.map((s) => s.id), ...(options.refused ?? []).map((s) => s.id)];
  const views = (): Promise<ShopView[]> =>
    Promise.all(
      order.map(async (id) => {
        const shop = shops.get(id)!;
        const view: ShopView = { id, name: shop.name, health: shop.site ? await shop.site.health() : nothing() };
        if (shop.refused !== undefined) view.refused = shop.refused;
        const again = reloadRefused.get(id);
        if (again !== undefined) view.reloadRefused = again;
        return view;
      }),
    );

  const root = async (req: IncomingMessage, res: ServerResponse, target: Target): Promise<void> => {
    if (req.method !== "GET" && req.method !== "HEAD") return text(res, 405, "method not allowed", { Allow: "GET, HEAD" });
    if (target.kind === "healthz" || target.kind === "monitor") {
      const answer = (target.kind === "healthz" ? healthAll : monitorAll)(await views());
      return json(res, answer.status, answer.body);
    }
    if (target.kind !== "status") return text(res, 404, "not found");
    if (!options.operator) return text(res, 404, "not found (the overview needs serve.status credentials in the main config)");
    if (!checkBasic(req.headers, options.operator.user, options.operator.password)) return text(res, 401, "authentication required", { "WWW-Authenticate": 'Basic realm="shops", charset="UTF-8"' });
    const html = renderOverview(await views(), now());
    res.writeHead(200, { ...HTML_HEADERS, "Content-Type": "text/html; charset=utf-8", "Content-Language": "en" });
    res.end(req.method === "HEAD" ? undefined : html);
  };

  /** A shop refused at start: its images as ever; no feed (its access rules are unknown), no page. */
  const refusedShop = async (req: IncomingMessage, res: ServerResponse, shop: Shop, target: Target, record: AccessRecord): Promise<void> => {
    if (req.method !== "GET" && req.method !== "HEAD") return text(res, 405, "method not allowed", { Allow: "GET, HEAD" });
    if (target.kind === "none") return text(res, 404, "not found");
    if (target.kind === "image") return shop.site ? shop.site.answer(req, res, target, record) : text(res, 404, "not found");
    if (target.kind === "healthz" || target.kind === "monitor") {
      const { body } = shop.site ? await shop.site.health() : nothing();
      return json(res, 503, { ...body, status: "refused", config: "refused", summary: "The shop's config was refused: its feeds are not served until it loads (read again after each run of the shop)." });
    }
    const what = target.kind === "feed" ? "its feeds are not served: their access rules are unknown" : "its status page is not served";
    return text(res, 503, `this shop's config was refused: ${what} (the operator's overview and serve's log say why)`, { "Retry-After": "300" });
  };

  const listening = await listenOrClose({ close: closeAll }, () =>
    listen(
      {
        redact: tokens.redact,
        answer: async (req, res, record) => {
          const url = req.url ?? "";
          const { segment, rest } = url.startsWith("/") ? splitShop(url) : { segment: "", rest: "" };
          const shop = shops.get(segment);
          if (!shop) {
            const target = parseTarget(url);
            record.path = loggablePath(url, target, tokens.redact);
            return root(req, res, target);
          }
          record.shop = shop.id;
          if (rest === "" || rest.startsWith("?")) {
            record.path = loggablePath(url, { kind: "none" }, tokens.redact);
            // The page's links are under /<shop>/: send a bare /<shop> there.
            return text(res, 308, "moved", { Location: `/${shop.id}/${rest}` });
          }
          const target = parseTarget(rest);
          record.path = loggablePath(url, target, tokens.redact);
          if (shop.refused !== undefined || !shop.site) return refusedShop(req, res, shop, target, record);
          return shop.site.answer(req, res, target, record);
        },
      },
      { host: options.host, port: options.port, logger, accessLog: options.accessLog ?? silentLogger },
    ),
  );
  logger.info("serving shops", { shops: options.shops.length, refused: (options.refused ?? []).length, overview: options.operator !== undefined });

  let closed: Promise<void> | undefined;
  const close = (graceMs = 30_000): Promise<void> =>
    (closed ??= (async () => {
      await listening.close(graceMs);
      await closeAll();
    })());
  const checkStale = async () => {
    await Promise.all([...shops.values()].map((s) => s.site?.checkStale()));
  };
  return { server: listening.server, url: listening.url, close, checkStale };
}
