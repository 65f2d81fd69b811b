/**
 * Fixtures of the serve tests: an output directory made by a real generate run
 * (in process, against the sandbox, small catalogue), a server on port 0 over
 * it, and an HTTP client that sends the request target exactly as written
 * (no URL normalisation: the hostile paths must reach the server as they are).
 */
import { request } from "node:http";
import { connect } from "node:net";
import { loadConfig } from "../../src/config/load.js";
import type { LoadedConfig } from "../../src/config/types.js";
import { createLogger, silentLogger, type Logger } from "../../src/log.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { startServer, type FeedServer, type ServeOptions } from "../../src/serve/server.js";
import { removeTemporaries, writeConfig, type ChannelFileJson, type E2eConfig } from "../e2e/config.js";

export const SECRETS = {
  FEED_USER: "merchant-center",
  FEED_PASSWORD: "correct horse battery staple",
  FEED_TOKEN: "tok_3f9a1c7e5b2d4a6c8e0f1a2b3c4d5e6f",
  STATUS_USER: "manager",
  STATUS_PASSWORD: "status-page-password",
};

const link = { template: "https://shop.example/p/{{id}}" };

/** google: open + gzip twin; meta: Basic; idealo: token; ndjson: open, no twin. */
export const CHANNELS: ChannelFileJson[] = [
  { name: "google-fr", preset: "google", locale: "fr", link, gzip: true, gate: { maxRejectedPercent: 100, maxDropPercent: 100 } },
  {
    name: "meta-fr",
    preset: "meta",
    locale: "fr",
    link,
    gate: { maxRejectedPercent: 100, maxDropPercent: 100 },
    access: { mode: "basic", user: "${FEED_USER}", password: "${FEED_PASSWORD}" },
  },
  { name: "idealo-fr", preset: "idealo", locale: "fr", link, gate: { maxRejectedPercent: 100, maxDropPercent: 100 }, access: { mode: "token", token: "${FEED_TOKEN}" } },
  { name: "generic-ndjson-fr", preset: "generic-ndjson", locale: "fr", link, gate: { maxRejectedPercent: 100, maxDropPercent: 100 } },
];

export interface Fixture {
  sandbox: SandboxHandle;
  tree: E2eConfig;
  /** Loaded as `serve` loads it (secrets required). */
  config: LoadedConfig;
  env: Record<string, string>;
  /** One more generate run into the same output directory. */
  generate(): Promise<void>;
  close(): Promise<void>;
}

export async function makeFixture(options: { products?: number; seed?: number; channels?: ChannelFileJson[] } = {}): Promise<Fixture> {
  const sandbox = await startSandbox({ products: options.products ?? 150, seed: options.seed ?? 7, rateLimit: 100_000 });
  const tree = await writeConfig({
    channels: options.channels ?? CHANNELS,
    main: { serve: { status: { user: "${STATUS_USER}", password: "${STATUS_PASSWORD}" } } },
  });
  const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret, ...SECRETS };
  // generate does not need the serve secrets: loaded without them on purpose.
  const generateConfig = await loadConfig(tree.configFile, { env: { ...env, FEED_PASSWORD: "", FEED_TOKEN: "", STATUS_PASSWORD: "" } });
  const generate = async () => {
    await runGenerate({ config: generateConfig, logger: silentLogger });
  };
  await generate();
  const config = await loadConfig(tree.configFile, { env, serve: true, checkCredentials: false });
  return {
    sandbox,
    tree,
    config,
    env,
    generate,
    close: async () => {
      await sandbox.close();
      await removeTemporaries();
    },
  };
}

export function serveOptions(config: LoadedConfig, extra: Partial<ServeOptions> = {}): ServeOptions & { port: number; host: string } {
  return {
    outputDir: config.outputDir,
    channels: config.channels.map((c) => ({ name: c.name, preset: c.preset.name, access: c.access, mapping: c.mapping })),
    publicBaseUrl: config.publicBaseUrl,
    ...(config.serve.status ? { status: config.serve.status } : {}),
    shopName: config.shop.name,
    host: "127.0.0.1",
    port: 0,
    ...extra,
  };
}

export function serve(config: LoadedConfig, extra: Partial<ServeOptions> = {}): Promise<FeedServer> {
  return startServer(serveOptions(config, extra));
}

/** A logger that keeps its lines (JSON), for the access-log assertions. */
export function memoryLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  return { logger: createLogger({ format: "json", write: (l) => void lines.push(l) }), lines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET (or `method`) of `path` exactly as given. */
export function fetchRaw(base: string, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Reply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** For targets node:http refuses to send (NUL, spaces, raw non-ASCII): the request line over a bare socket. */
export function rawRequestLine(base: string, target: Buffer | string): Promise<number> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let data = "";
    socket.on("data", (c: Buffer) => (data += c.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
    socket.write(Buffer.concat([Buffer.from("GET "), Buffer.isBuffer(target) ? target : Buffer.from(target, "latin1"), Buffer.from(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")]));
  });
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

/**
 * `path` asked, and its access-log line: written when the response closes, which may come after
 * the client read the last byte, so waited for (a new line with that message, not a time).
 */
export async function askAndLog(base: string, lines: () => Record<string, unknown>[], path: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ reply: Reply; line: Record<string, unknown> }> {
  const msg = `${method} ${path}`;
  const seen = lines().filter((l) => l["msg"] === msg).length;
  const reply = await fetchRaw(base, path, headers, method);
  for (let looked = 0; looked < 1000; looked++) {
    const found = lines().filter((l) => l["msg"] === msg);
    if (found.length > seen) return { reply, line: found[found.length - 1]! };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${msg}: never logged`);
}
