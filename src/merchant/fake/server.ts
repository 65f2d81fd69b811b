/**
 * A local fake of the Merchant API v1, written from its public REST reference, for the
 * tests and the figures (as src/sandbox/ is for the catalogue). It serves, on one port:
 *
 *   POST /token                                   OAuth JWT bearer grant (the key's token_uri)
 *   POST /accounts/v1/accounts/{a}/developerRegistration:registerGcp
 *   GET  /accounts/v1/accounts/{a}/issues         account-level issues
 *   GET  /products/v1/accounts/{a}/products[/{p}] products with productStatus, pages of <= 1000
 *   POST /products/v1/accounts/{a}/productInputs:insert?dataSource=...
 *   DEL  /products/v1/accounts/{a}/productInputs/{p}?dataSource=...
 *   GET|POST /datasources/v1/accounts/{a}/dataSources, PATCH .../dataSources/{d} (the default rule)
 *   GET  /quota/v1/accounts/{a}/quotas
 *
 * As Google: 401 without a valid token, 401 "not registered" before registerGcp, 403 for
 * a service account that is not a user of the account, 429 quota/request_rate_too_high
 * when a test queues faults, {product} segments plain or base64url.
 */
import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Hostile, hostileProducts, NEVER } from "./hostile.js";
import { FakeTokens } from "./token.js";
import { deleteInput, getProduct, insertInput, listProducts } from "./products.js";
import { createDataSource, listDataSources, patchDataSource } from "./datasources.js";
import { googleError, ok, type Reply } from "./reply.js";
import { FakeAccount } from "./state.js";

export interface FakeFault {
  status: number;
  message?: string;
  reason?: string;
  retryAfterSeconds?: number;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
}

export class FakeMerchantApi {
  readonly accounts = new Map<string, FakeAccount>();
  /** Public keys of the service accounts that may ask for a token, by client e-mail. */
  readonly publicKeys = new Map<string, string>();
  /** Client e-mails that are users of each account. */
  readonly users = new Map<string, Set<string>>();
  /** ... and those of them with ADMIN access (registerGcp requires it). */
  readonly admins = new Map<string, Set<string>>();
  readonly tokens: FakeTokens;
  /** Every API request (not the token grants), in order. */
  readonly log: FakeRequest[] = [];
  /** Answers for the next API requests, in order (429s, 500s), before anything else is checked. */
  readonly faults: FakeFault[] = [];
  /** A hostile answer (hostile.ts) instead of Google's, until set back to undefined. */
  hostile: Hostile | undefined;
  /** "request" (a FakeRequest, token grants included as path /token) as each arrives, "huge" (bytes written) when a huge page ends: tests wait on these. */
  readonly events = new EventEmitter();
  /** Bytes of huge pages written, all together. */
  hugeBytes = 0;
  #server: Server | undefined;
  url = "";

  constructor(readonly now: () => number = Date.now) {
    this.tokens = new FakeTokens(this.publicKeys, now);
  }

  account(id: string, user?: { clientEmail: string; publicKey: string; admin?: boolean }): FakeAccount {
    const account = this.accounts.get(id) ?? new FakeAccount(id);
    this.accounts.set(id, account);
    if (user) {
      this.publicKeys.set(user.clientEmail, user.publicKey);
      this.users.set(id, (this.users.get(id) ?? new Set()).add(user.clientEmail));
      if (user.admin !== false) this.admins.set(id, (this.admins.get(id) ?? new Set()).add(user.clientEmail));
    }
    return account;
  }

  get tokenUri(): string {
    return `${this.url}/token`;
  }

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      void this.#handle(req).then(
        (reply) => {
          if (reply.raw) return reply.raw(res);
          res.writeHead(reply.status, { "content-type": "application/json; charset=UTF-8", ...reply.headers });
          res.end(JSON.stringify(reply.body));
        },
        (error: unknown) => {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { code: 500, message: String(error) } }));
        },
      );
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage): Promise<Reply> {
    const url = new URL(req.url ?? "/", "http://fake");
    const text = await new Promise<string>((resolve) => {
      let data = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (data += chunk));
      req.on("end", () => resolve(data));
    });
    if (req.method === "POST" && url.pathname === "/token") {
      this.events.emit("request", { method: "POST", path: "/token", query: {} } satisfies FakeRequest);
      if (this.hostile?.kind === "silent-token") return NEVER;
      const answer = this.tokens.grant(new URLSearchParams(text), this.tokenUri);
      return { status: answer.status, body: answer.body };
    }
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      return googleError(400, "Invalid JSON payload received.");
    }
    const logged: FakeRequest = { method: req.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams), ...(body === undefined ? {} : { body }) };
    this.log.push(logged);
    this.events.emit("request", logged);
    const fault = this.faults.shift();
    if (fault) {
      const reason = fault.reason ?? (fault.status === 429 ? "quota/request_rate_too_high" : undefined);
      const headers = fault.retryAfterSeconds === undefined ? undefined : { "retry-after": String(fault.retryAfterSeconds) };
      return googleError(fault.status, fault.message ?? (reason ? `Quota exceeded: ${reason}` : "Internal error encountered."), reason, headers);
    }
    const client = this.tokens.check(req.headers.authorization);
    if (!client) return googleError(401, "Request had invalid authentication credentials. Expected OAuth 2 access token.", "ACCESS_TOKEN_EXPIRED");
    const match = /^\/(accounts|products|datasources|quota)\/v1\/accounts\/([^/]+)(\/.*)?$/.exec(url.pathname);
    const account = match ? this.accounts.get(match[2]!) : undefined;
    if (!match || !account) return googleError(404, `Method not found or no account: ${url.pathname}`);
    const rest = match[3] ?? "";
    if (!this.users.get(account.id)?.has(client)) return googleError(403, `The caller does not have access to the accounts: [${account.id}]`);
    if (match[1] === "accounts" && rest === "/developerRegistration:registerGcp" && req.method === "POST") {
      if (!this.admins.get(account.id)?.has(client)) return googleError(403, `The caller does not have ADMIN access to the account [${account.id}].`);
      account.registered = true;
      account.registeredEmail = (body as { developerEmail?: string } | undefined)?.developerEmail;
      return ok({ name: `accounts/${account.id}/developerRegistration`, gcpIds: ["123456789"] });
    }
    if (!account.registered) {
      return googleError(401, "GCP project with id pharmafeed-test and number 123456789 is not registered with the merchant account. Please follow these steps https://developers.google.com/merchant/api/guides/quickstart#register_as_a_developer to register the GCP project with the merchant account then try calling the API again in 5 minutes.", "GCP_NOT_REGISTERED");
    }
    return this.#route(account, `${match[1]} ${req.method} ${rest}`, url.searchParams, body);
  }

  #route(account: FakeAccount, route: string, query: URLSearchParams, body: unknown): Reply | Promise<Reply> {
    const charge = (method: string): Reply | undefined => {
      const quota = account.quotaFor(method);
      if (!quota) return undefined;
      if (quota.usage >= quota.limit) return googleError(429, `Quota exceeded: daily limit of ${quota.limit} for ${quota.group}`, "quota/daily_limit_exceeded");
      quota.usage++;
      return undefined;
    };
    const product = /^products (GET|DELETE) \/(products|productInputs)\/([^/]+)$/.exec(route);
    if (route === "products GET /products") {
      const hostile = hostileProducts(this.hostile, (written) => void written.then((bytes) => ((this.hugeBytes += bytes), this.events.emit("huge", bytes))));
      if (hostile) return hostile;
      return charge("products.list") ?? listProducts(account, query);
    }
    if (product?.[1] === "GET" && product[2] === "products") return charge("products.get") ?? getProduct(account, product[3]!);
    if (route === "products POST /productInputs:insert") return charge("productinputs.insert") ?? insertInput(account, query, body);
    if (product?.[1] === "DELETE" && product[2] === "productInputs") return charge("productinputs.delete") ?? deleteInput(account, product[3]!, query);
    if (route === "accounts GET /issues") return charge("accounts.issues.list") ?? ok({ accountIssues: account.issues });
    if (route === "quota GET /quotas") {
      return (
        charge("quotas.list") ??
        ok({
          quotaGroups: account.quotas.map((q) => ({
            name: `accounts/${account.id}/quotas/${q.group}`,
            quotaUsage: String(q.usage),
            quotaLimit: String(q.limit),
            quotaMinuteLimit: String(q.minuteLimit),
            methodDetails: q.methods.map((m) => ({ method: m, version: "v1", subapi: q.group, path: `${q.group}/v1/${m}` })),
          })),
        })
      );
    }
    if (route === "datasources GET /dataSources") return charge("datasources.list") ?? listDataSources(account);
    if (route === "datasources POST /dataSources") return charge("datasources.create") ?? createDataSource(account, body);
    const patch = /^datasources PATCH \/dataSources\/([^/]+)$/.exec(route);
    if (patch) return charge("datasources.patch") ?? patchDataSource(account, patch[1]!, query, body);
    return googleError(404, `Method not found: ${route}`);
  }
}
