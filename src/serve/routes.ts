/**
 * What each path answers. Feeds: only names the current manifest lists, after
 * the channel's access check. Refusals look alike whatever the cause: on
 * `/feeds/<name>` a missing name, a protected feed without or with wrong
 * credentials, and a token feed asked for without its token all get the same
 * answer (401 with a Basic challenge when any channel uses Basic, else 404); on
 * `/feeds/<token>/<name>` every refusal is a 404. So nobody learns from a
 * refusal whether a name exists. Images: open, immutable (content-named).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname } from "node:path";
import type { AccessConfig } from "../config/schema.js";
import type { Logger } from "../log.js";
import { presented, verdict } from "./access.js";
import type { BotVerifier } from "./bot-verify.js";
import { marketplaceOf } from "./bots.js";
import type { AccessRecord } from "./access-log.js";
import type { Lookup } from "./live-feeds.js";
import type { Target } from "./paths.js";
import { openInside, realFolder } from "./safe-open.js";
import { sendFile, type SendOptions } from "./send.js";
import { SharedFile } from "./shared-file.js";
import { statusChanges, statusPage, statusReport, statusScript, type StatusContext } from "./status/handler.js";
import { acceptsGzip } from "./validators.js";
import { IMAGES_DIR } from "../core/layout.js";
import { healthOf } from "./health.js";

export interface RouteContext extends StatusContext {
  logger: Logger;
  verifier: BotVerifier;
}

const IMAGE_TYPES: Record<string, string> = { ".jpg": "image/jpeg", ".png": "image/png", ".webp": "image/webp" };
const YEAR = 365 * 24 * 3600;

export function text(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", ...headers });
  res.end(res.req.method === "HEAD" ? undefined : `${body}\n`);
}

export function usesBasic(channels: readonly { access: AccessConfig["mode"] }[]): boolean {
  return channels.some((c) => c.access === "basic");
}

function refuse(res: ServerResponse, ctx: RouteContext, tokenPath: boolean): void {
  // A held feed (the config no longer names it, publish/held-feeds.ts) keeps its Basic rule too.
  const basic = usesBasic(ctx.channels) || ctx.live.now.feeds.some((f) => f.access.mode === "basic");
  if (!tokenPath && basic) text(res, 401, "authentication required", { "WWW-Authenticate": 'Basic realm="feeds", charset="UTF-8"' });
  else text(res, 404, "not found");
}

function sendFeed(req: IncomingMessage, res: ServerResponse, { feed, gzipFile }: Lookup): void {
  const cacheControl = feed.access.mode === "open" ? "no-cache" : "private, no-cache";
  let options: SendOptions;
  let rep = feed.identity;
  if (gzipFile && feed.gzip) {
    rep = feed.gzip;
    options = { contentType: "application/gzip", cacheControl, varyEncoding: false, ranges: true };
  } else if (feed.gzip && req.headers.range === undefined && acceptsGzip(req.headers)) {
    // Compressed once by generate; never per request.
    rep = feed.gzip;
    options = { contentType: feed.contentType, contentEncoding: "gzip", cacheControl, varyEncoding: true, ranges: false };
  } else {
    options = { contentType: feed.contentType, cacheControl, varyEncoding: feed.gzip !== undefined, ranges: true };
  }
  sendFile(req, res, rep, options);
}

async function feed(req: IncomingMessage, res: ServerResponse, target: Extract<Target, { kind: "feed" }>, ctx: RouteContext, record: AccessRecord): Promise<void> {
  // Credentials hashed before the lookup and compared the same way whether the name is served or not,
  // so that the time of a refusal does not tell (access.ts).
  const sent = presented(req.headers, target.token);
  const lookup = (await ctx.live.current()).byName.get(target.name);
  const allowed = verdict(lookup?.feed.access, sent) === "allowed";
  if (!lookup) return refuse(res, ctx, target.token !== undefined);
  record.channel = lookup.feed.channel;
  if (allowed) sendFeed(req, res, lookup);
  else refuse(res, ctx, target.token !== undefined);
  // After the answer went out: the DNS check (cached) never delays a download.
  const at = ctx.now();
  const userAgent = req.headers["user-agent"];
  const marketplace = marketplaceOf(userAgent);
  if (!marketplace) return;
  const verified = await ctx.verifier.verified(marketplace, req.socket.remoteAddress);
  ctx.state.record(lookup.feed.channel, userAgent, res.statusCode, at, verified);
}

async function image(req: IncomingMessage, res: ServerResponse, name: string, ctx: RouteContext): Promise<void> {
  const folder = await realFolder(ctx.outputReal, IMAGES_DIR);
  const opened = folder ? await openInside(ctx.outputReal, folder, name) : undefined;
  if (!opened) return text(res, 404, "not found");
  // One handle per request: it closes when this download ends (retired at once, released by the stream).
  const file = new SharedFile(opened.handle, opened.stat.size);
  const rep = { file, etag: `"${name.slice(0, name.indexOf("."))}"`, lastModified: opened.stat.mtime, bytes: opened.stat.size };
  const contentType = IMAGE_TYPES[extname(name)] ?? "application/octet-stream";
  sendFile(req, res, rep, { contentType, cacheControl: `public, max-age=${YEAR}, immutable`, varyEncoding: false, ranges: true });
  await file.retire();
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(res.req.method === "HEAD" ? undefined : `${JSON.stringify(body)}\n`);
}

/** For a load balancer: 200 while any feed is served, whatever the last run did (the body says ok, degraded or stale). */
async function healthz(res: ServerResponse, ctx: RouteContext): Promise<void> {
  const { body, feedsServed } = await healthOf(ctx.live, ctx.now(), ctx.maxFeedAgeHours);
  json(res, feedsServed > 0 ? 200 : 503, body);
}

/** For an uptime monitor: 503 unless the last run published every channel and the feeds are recent. */
async function monitor(res: ServerResponse, ctx: RouteContext): Promise<void> {
  const { state, body } = await healthOf(ctx.live, ctx.now(), ctx.maxFeedAgeHours);
  json(res, state.alert ? 503 : 200, body);
}

export async function route(req: IncomingMessage, res: ServerResponse, target: Target, ctx: RouteContext, record: AccessRecord): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") return text(res, 405, "method not allowed", { Allow: "GET, HEAD" });
  // A run's new manifest is when the page's login is read again (site.ts): looked for before the login is checked.
  if (target.kind.startsWith("status")) await ctx.live.current();
  switch (target.kind) {
    case "feed":
      return feed(req, res, target, ctx, record);
    case "image":
      return image(req, res, target.name, ctx);
    case "healthz":
      return healthz(res, ctx);
    case "monitor":
      return monitor(res, ctx);
    case "status":
      return statusPage(req, res, ctx, text);
    case "status-script":
      return statusScript(req, res, ctx, text);
    case "status-report":
      return statusReport(req, res, target.name, ctx, text);
    case "status-changes":
      return statusChanges(req, res, target.channel, ctx, text);
    case "none":
      return text(res, 404, "not found");
  }
}
