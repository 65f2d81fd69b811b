/**
 * The sandbox HTTP server (node:http, no framework). Order of checks for each
 * request, as a client meets them:
 *
 *   stats -> photo bytes (/media/..., see images.ts: public, own faults)
 *   -> injected 5xx / 429 storms -> route (404, 405) -> auth (401)
 *   -> subscription (403) -> rate limit (429) -> User-Agent on media (403)
 *   -> body (413, 415, 400) -> endpoint (422 / 200 / 204 / stream)
 *
 * Any exception becomes a 500 with the service's error body; the server keeps
 * serving.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createCatalogue } from "../generate/catalogue.js";
import { phpJson } from "../generate/json.js";
import { SandboxOptions, type SandboxHandle, type SandboxOptionsInput } from "../options.js";
import { buildRoutes } from "../endpoints/index.js";
import type { Created, Reply } from "../endpoints/types.js";
import { authenticate } from "./auth.js";
import { readJsonBody } from "./body.js";
import { errorReply, serverErrorReply } from "./errors.js";
import { FaultState } from "./faults.js";
import { createImageHandler } from "./images.js";
import { closeLinePool } from "./pool.js";
import { RateLimiter } from "./rate-limit.js";
import { writeStream } from "./stream.js";
import { refusedUserAgent } from "./user-agent.js";

function send(res: ServerResponse, reply: Reply): void {
  if (reply.kind === "empty") {
    // 204 carries neither a body nor a content-length (RFC 9110).
    res.writeHead(reply.status).end();
    return;
  }
  if (reply.kind === "json") {
    // Every body is encoded the way the service's PHP stack does it (see generate/json.ts).
    const body = phpJson(reply.body);
    res.writeHead(reply.status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...reply.headers });
    res.end(body);
  }
}

export async function startSandbox(input: SandboxOptionsInput = {}): Promise<SandboxHandle> {
  const options = SandboxOptions.parse(input);
  const stats = { requests: 0, byPath: new Map<string, number>() };
  const faults = new FaultState(options.faults);
  const images = createImageHandler(options.faults.brokenImages);
  const limiter = new RateLimiter(options.rateLimit, options.rateWindowMs);
  const created: Created = { users: [], organizations: [] };
  const main = { id: options.keyId, secret: options.keySecret };
  const server = createServer();
  // The catalogue needs the URL (photo links point at the sandbox), known once listening.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  let fixedAt = options.changes?.at;
  const clock = { now: () => fixedAt ?? Math.floor(Date.now() / 1000), set: (at: number) => void (fixedAt = at) };
  const changes = options.changes && { perHour: options.changes.perHour, newPerHour: options.changes.newPerHour, since: options.changes.since ?? clock.now(), clock: clock.now };
  const catalogue = createCatalogue({ seed: options.seed, products: options.products, assetBaseUrl: url, ...(changes ? { changes } : {}) });
  const routes = buildRoutes(catalogue, created);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const target = new URL(req.url ?? "/", url);
    const path = target.pathname;
    stats.requests++;
    stats.byPath.set(path, (stats.byPath.get(path) ?? 0) + 1);
    // Photo URLs live on the image host, not the API: the API's storms and limits do not apply.
    if (path.startsWith("/media/")) return images(req, res, path);
    const fault = faults.onRequest();
    if (fault && "fail" in fault) return respond(res, serverErrorReply(fault.fail));
    if (fault) return respond(res, errorReply("tooManyRequests", "Too many requests (injected 429 storm)."));
    const route = routes.get(path);
    if (!route) return respond(res, errorReply("notFound", `No endpoint ${path}; endpoints live under /v4.`));
    if (req.method !== route.method) {
      return respond(res, errorReply("methodNotAllowed", `${path} takes ${route.method}, got ${req.method ?? "?"}.`, undefined, { allow: route.method }));
    }
    const key = authenticate(req.headers.authorization, main);
    if (!key) return respond(res, errorReply("notAuthenticated", "Authentication required: HTTP Basic with your API key id and secret."));
    if (route.restricted && !key.mayCreate) {
      return respond(res, errorReply("forbidden", `Your subscription does not allow ${path}.`));
    }
    if (!limiter.take(key.id)) {
      return respond(res, errorReply("tooManyRequests", `Rate limit of ${options.rateLimit} requests per ${options.rateWindowMs / 1000} s exceeded.`));
    }
    if (route.media) {
      const refusal = refusedUserAgent(req.headers["user-agent"]);
      if (refusal) return respond(res, errorReply("userAgentRequired", refusal));
    }
    const body = route.method === "POST" ? await readJsonBody(req) : { ok: true as const, value: undefined };
    if (!body.ok) return respond(res, body.reply);
    const reply = route.handler({ body: body.value, key, url: target, catalogue, created });
    if (reply.kind === "stream") {
      const streamFaults = faults.nextStream();
      await writeStream(res, reply, streamFaults);
      return 200;
    }
    return respond(res, reply);
  }

  function respond(res: ServerResponse, reply: Reply): number {
    send(res, reply);
    return reply.kind === "stream" ? 200 : reply.status;
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    // Drain whatever body a refused request carries, so the connection can be reused.
    req.on("error", () => undefined);
    res.on("error", () => undefined);
    handle(req, res).then(
      (status) => {
        if (!req.complete) req.resume();
        if (options.log) process.stderr.write(`sandbox ${req.method} ${req.url} ${status} ${(performance.now() - started).toFixed(1)} ms\n`);
      },
      (error: unknown) => {
        if (!res.headersSent) send(res, errorReply("internal", `Unexpected sandbox error: ${(error as Error)?.message ?? String(error)}`));
        else res.destroy();
        if (options.log) process.stderr.write(`sandbox ${req.method} ${req.url} 500 ${String(error)}\n`);
      },
    );
  });

  return {
    url,
    port,
    keyId: options.keyId,
    keySecret: options.keySecret,
    stats,
    clock,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }).finally(() => closeLinePool(catalogue)),
  };
}
