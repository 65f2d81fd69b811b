/**
 * `pharmafeed fetch <resource>`: reads one resource of the Catalogue API v4 and
 * writes it as NDJSON (one record per line) to stdout or --out. Products and
 * media come from their stream endpoints, the rest from paged queries.
 * Progress (count/total) goes to stderr when it is a terminal; one summary line
 * always ends the run there.
 */
import { createWriteStream } from "node:fs";
import type { Writable } from "node:stream";
import type { Argv, CommandModule } from "yargs";
import type { CatalogueClient } from "../catalogue/client.js";
import { ENV, resolveSourceOptions } from "../catalogue/options.js";
import { RESOURCE_NAMES, RESOURCES, type ResourceName } from "../catalogue/query/resources.js";
import type { ReadStats } from "../catalogue/stream/events.js";
import { isPharmafeedError, PharmafeedError } from "../errors.js";

export interface FetchArgs {
  resource: ResourceName;
  filter?: string;
  sort?: string;
  out?: string;
  "base-url"?: string;
  contact?: string;
  /** A main config file whose `source` (base URL, contact, key references, timeouts, retry) is used. */
  config?: string;
}

export interface FetchIo {
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

/** What the summary says; also returned for tests and callers. */
export interface FetchSummary extends ReadStats {
  resource: ResourceName;
  seconds: number;
}

/** Products and media default to every record (`{}`) in id order; other resources to the service's defaults. */
export const DEFAULT_STREAM_BODY = { filter: {}, sorting: { id: "ASC" } } as const;
const BATCH_CHARS = 64 * 1024;
const SHOWN_REJECTIONS = 20;

function jsonFlag(flag: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PharmafeedError("USAGE", `--${flag} is not JSON (${(error as Error).message}), got ${text.slice(0, 60)}`);
  }
}

/**
 * Flags win over the environment, which wins over the config's `source` (as for
 * generate); without --config, credentials come only from the environment.
 */
async function clientFor(args: FetchArgs, env: FetchIo["env"]): Promise<CatalogueClient> {
  const { createCatalogueClient } = await import("../catalogue/client.js");
  const overlay = { ...env };
  if (args["base-url"] !== undefined) overlay[ENV.baseUrl] = args["base-url"];
  if (args.contact !== undefined) overlay[ENV.contact] = args.contact;
  if (args.config !== undefined) {
    // The whole config is checked, as generate would: the same file must serve both.
    const { loadConfig } = await import("../config/load.js");
    const config = await loadConfig(args.config, { env: overlay });
    return createCatalogueClient(config.source!);
  }
  try {
    return createCatalogueClient(resolveSourceOptions({}, overlay));
  } catch (error) {
    if (!isPharmafeedError(error, "CONFIG_INVALID")) throw error;
    throw new PharmafeedError(
      "CONFIG_INVALID",
      `${error.message}\n  give --base-url and --contact (or ${ENV.baseUrl}, ${ENV.contact}); the key comes only from ${ENV.keyId} and ${ENV.keySecret}`,
      { cause: error },
    );
  }
}

/** Writes whole lines only, in batches, waiting for 'drain' (backpressure); remembers a write error. */
class LineSink {
  #batch = "";
  error: Error | undefined;

  constructor(readonly out: Writable) {
    out.on("error", (error: Error) => (this.error ??= error));
  }

  async line(text: string): Promise<void> {
    this.#batch += `${text}\n`;
    if (this.#batch.length >= BATCH_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#batch === "" || this.error) return;
    const data = this.#batch;
    this.#batch = "";
    if (!this.out.write(data)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.out.off("drain", done);
          this.out.off("error", done);
          this.out.off("close", done);
          resolve();
        };
        this.out.on("drain", done).on("error", done).on("close", done);
      });
    }
  }
}

async function* records(client: CatalogueClient, args: FetchArgs, onProgress: (count: number, total?: number) => void, stats: { current?: ReadStats }) {
  const filter = jsonFlag("filter", args.filter);
  const sorting = jsonFlag("sort", args.sort);
  const def = RESOURCES[args.resource];
  if (def.stream) {
    const body = { filter: filter ?? DEFAULT_STREAM_BODY.filter, sorting: sorting ?? DEFAULT_STREAM_BODY.sorting } as never;
    const stream = args.resource === "products" ? client.streamProducts(body) : client.streamMedia(body);
    stats.current = stream.stats;
    for await (const record of stream) {
      yield record;
      onProgress(stream.stats.records, stream.total);
    }
    return;
  }
  const pages = client.queryAll(args.resource, { filter: filter as never, sorting: sorting as never, pageSize: 250 });
  stats.current = pages.stats;
  for await (const page of pages) {
    for (const record of page.results) yield record;
    onProgress(pages.stats.records, pages.total);
  }
}

export async function runFetch(args: FetchArgs, io: FetchIo): Promise<FetchSummary> {
  const started = performance.now();
  const client = await clientFor(args, io.env);
  const out = args.out === undefined ? io.stdout : createWriteStream(args.out);
  const sink = new LineSink(out);
  const holder: { current?: ReadStats } = {};
  let lastDraw = 0;
  const progress = (count: number, total?: number) => {
    if (!io.stderr.isTTY || performance.now() - lastDraw < 200) return;
    lastDraw = performance.now();
    io.stderr.write(`\r${args.resource}: ${count}/${total ?? "?"}`);
  };
  try {
    for await (const record of records(client, args, progress, holder)) {
      await sink.line(JSON.stringify(record));
      if (sink.error) break;
    }
    await sink.flush();
  } finally {
    if (io.stderr.isTTY && lastDraw > 0) io.stderr.write("\r\x1b[K");
    await client.close();
    if (out !== io.stdout) await new Promise<void>((resolve) => out.end(() => resolve()));
  }
  // A reader that went away (`| head`) is not a failure; anything else is.
  if (sink.error && (sink.error as NodeJS.ErrnoException).code !== "EPIPE") {
    throw new PharmafeedError("WRITE_FAILED", `cannot write ${args.out ?? "stdout"}: ${sink.error.message}`, { cause: sink.error, context: { file: args.out } });
  }
  const stats = holder.current as ReadStats;
  const summary: FetchSummary = { ...stats, resource: args.resource, seconds: (performance.now() - started) / 1000 };
  for (const rejection of stats.rejections.slice(0, SHOWN_REJECTIONS)) {
    const where = [`line ${rejection.line}`, rejection.id === undefined ? "" : `id ${rejection.id}`, rejection.path ?? ""].filter(Boolean).join(", ");
    io.stderr.write(`rejected ${rejection.code} (${where}): ${rejection.message}\n`);
  }
  if (stats.rejected > SHOWN_REJECTIONS) io.stderr.write(`... and ${stats.rejected - SHOWN_REJECTIONS} more rejected\n`);
  io.stderr.write(
    `fetch ${args.resource}: ${stats.records} records, ${stats.rejected} rejected, ${stats.retries} retries, ${stats.resumes} resumes, ${summary.seconds.toFixed(2)} s\n`,
  );
  return summary;
}

export const fetchCommand: CommandModule<object, FetchArgs> = {
  command: "fetch <resource>",
  describe: "Read a Catalogue API v4 resource and write it as NDJSON (credentials from CATALOGUE_API_KEY_ID/SECRET)",
  builder: (yargs: Argv) =>
    yargs
      .positional("resource", { choices: RESOURCE_NAMES, describe: "what to read", demandOption: true })
      .option("filter", { type: "string", describe: 'filter as JSON, e.g. \'{"status":"active"}\' (products/media default: {} = every record)' })
      .option("sort", { type: "string", describe: 'sorting as JSON, e.g. \'{"id":"DESC"}\' (products/media default: {"id":"ASC"})' })
      .option("out", { type: "string", describe: "write to this file instead of stdout" })
      .option("base-url", { type: "string", describe: `API base URL without /v4 (else ${ENV.baseUrl})` })
      .option("contact", { type: "string", describe: `your e-mail or URL for the User-Agent (else ${ENV.contact})` })
      .option("config", { type: "string", describe: "take the source (base URL, contact, key references, timeouts) from this main config file" }) as unknown as Argv<FetchArgs>,
  handler: async (args) => {
    await runFetch(args, { stdout: process.stdout, stderr: process.stderr, env: process.env });
  },
};
