/**
 * The products of a run, from the source to every channel's file: the source planned (full read,
 * delta or snapshot), the reference data loaded once, the channels and the kept state opened, then
 * every product mapped and written in one pass (shard/dispatch.ts; a refresh copies the rows of
 * products that cannot have changed, rowcache/reuse.ts).
 *
 * What it opens is put in `parts` as soon as it exists, so that a failure at any point reaches
 * everything to abort (run.ts).
 */
import type { CatalogueClient } from "../catalogue/client.js";
import type { EventListener } from "../catalogue/stream/events.js";
import type { Rejection } from "../catalogue/stream/line.js";
import type { LoadedConfig } from "../config/types.js";
import { StateLogSink } from "../explain/state-sink.js";
import type { ImageRunOptionsInput } from "../images/options.js";
import { ImagePipeline } from "../images/pipeline.js";
import type { Logger } from "../log.js";
import { PharmafeedError } from "../errors.js";
import type { Manifest } from "../publish/manifest.js";
import { createProgress } from "../progress.js";
import { planReuse, ReuseSource } from "../rowcache/reuse.js";
import { RunSource, type SourceMode } from "../snapshot/run-source.js";
import { ChannelRun } from "./channel-run.js";
import { feedMeta } from "./feed-meta.js";
import { loadContext, type ReferenceLists } from "./load-context.js";
import type { MappingContext } from "../mapping/context.js";
import type { LoadedOffers } from "./offers-file.js";
import type { RunParts } from "./run-parts.js";
import { dispatch, type Target } from "./shard/dispatch.js";
import { logRetry } from "./source-log.js";
import { defaultWorkers, type Machine, MAIN_THREAD_MB, PLANNED_SHARE, thisMachine } from "./workers.js";

/**
 * Below this many products, starting workers costs more than they save: npm start's
 * 2,000 took 1.5 s and 276 MB with two workers, 1.2 s and 158 MB without.
 */
export const SHARD_MIN_PRODUCTS = 5000;

/** What the shops of a run share: the catalogue read and how it is mapped. */
export interface ProductsInput {
  /** The source's settings (source, query, sync, priceUnit: the main file's, the same in every shop). */
  config: LoadedConfig;
  client: CatalogueClient;
  logger: Logger;
  /** Where the snapshot lives: the output directory (one shop), or the main output directory (many). */
  sourceDir: string;
  started: Date;
  dryRun: boolean;
  source: SourceMode;
  reuse: boolean;
  workers: number | undefined;
  shardMinProducts: number | undefined;
  images: ImageRunOptionsInput | undefined;
  tty: boolean;
  signal: AbortSignal | undefined;
  /** A run of many shops from the snapshot: fail rather than read the catalogue when it cannot be used. */
  requireSnapshot?: boolean;
  /** Takes the source's snapshot sink (run.ts: the shop's parts, or a sink every shop shares). */
  useSource(source: RunSource): void;
}

/** One shop of the run: its settings, where its files go, its offers, and the parts it opened. */
export interface ShopProducts {
  config: LoadedConfig;
  outputDir: string;
  /** Where feeds and reports are written (output/preview/ on a dry run). */
  writeDir: string;
  offers: LoadedOffers | undefined;
  parts: RunParts;
}

/** What the manifest says of the source. */
export interface SourceFigures {
  source: Manifest["source"];
  sync: NonNullable<Manifest["sync"]>;
}

/** The default worker count, saying so when the memory limit lowered it or is tight even without workers. */
function workersFor(machine: Machine, logger: Logger): number {
  const workers = defaultWorkers(machine);
  const memoryLimitMb = Math.round(machine.memoryBytes / 2 ** 20);
  if (workers < defaultWorkers({ ...machine, memoryBytes: Infinity })) logger.info("fewer worker threads for the memory limit", { workers, memoryLimitMb });
  if (memoryLimitMb * PLANNED_SHARE < MAIN_THREAD_MB) logger.warn("the memory limit leaves little room even without worker threads", { memoryLimitMb, neededMb: MAIN_THREAD_MB });
  return workers;
}

/** The source's events in the log; rejected records counted by code for the manifest. */
function sourceEvents(logger: Logger, rejectedByCode: Record<string, number>): EventListener {
  return (event) => {
    if (event.type === "resume") logger.warn("stream cut, resumed", { fromIndex: event.fromIndex, resumes: event.resumes });
    if (event.type === "retry") logRetry(logger, event.retry);
    if (event.type === "rejected") {
      const { rejection } = event;
      rejectedByCode[rejection.code] = (rejectedByCode[rejection.code] ?? 0) + 1;
      logger.warn("source record rejected", { line: rejection.line, id: rejection.id, code: rejection.code, path: rejection.path });
    }
  };
}

/** A shop's channels, mapping context and explain index, opened into its parts (a failure reaches everything to abort). */
async function openShop(input: ProductsInput, shop: ShopProducts, known: ReferenceLists | undefined, userAgent: string, sharedWith: MappingContext | undefined): Promise<{ target: Target; state: StateLogSink; reference: ReferenceLists }> {
  const { logger, started, dryRun } = input;
  const { config, outputDir, parts } = shop;
  const signal = input.signal ? { signal: input.signal } : {};
  if (config.channels.some((c) => c.mapping.images.process)) {
    const images = await ImagePipeline.open({ outputDir, publicBaseUrl: config.publicBaseUrl as string, userAgent, now: started, dryRun, ...(input.images ? { options: input.images } : {}), ...signal });
    parts.useImages(images, logger);
  }
  const { context, reference } = await loadContext(input.client, config, started, shop.offers?.parsed.offers, known, sharedWith);
  const runs = config.channels.map((channel) => new ChannelRun(channel, shop.writeDir, feedMeta(config, channel, started), parts.images));
  parts.runs.push(...runs);
  const state = await StateLogSink.open({ outputDir, channels: runs.length, context, logger, dryRun });
  parts.sinks.push(state);
  runs.forEach((run, i) => (run.explain = state.explain?.channel(i)));
  // The item sheets hear every product where the state log does; a dry run's beside its feeds in output/preview/ (removed after its gate).
  if (state.explain && parts.history) {
    const sheets = await parts.history.record(shop.writeDir, runs.map((r) => ({ name: r.channel.name, locale: r.channel.mapping.locale })));
    if (sheets) state.explain.observe(sheets);
  }
  return { target: { runs, context, explain: state.explain }, state, reference };
}

/**
 * Opens the run's parts (source, then per shop images, channels, kept state) into each shop's
 * parts, then maps every product: one catalogue read, each line parsed once for every shop.
 */
export async function mapProducts(input: ProductsInput, shops: readonly ShopProducts[]): Promise<SourceFigures> {
  const { client, logger, started, dryRun } = input;
  const signal = input.signal ? { signal: input.signal } : {};
  const rejectedByCode: Record<string, number> = {};
  const onEvent = sourceEvents(logger, rejectedByCode);
  const source = RunSource.plan({ client, config: input.config, outputDir: input.sourceDir, requested: input.source, now: started, dryRun, onEvent, warn: (m, f) => logger.warn(m, f), ...signal });
  input.useSource(source);
  // Shards on many machines share one snapshot: n of them falling back to a full read would read the catalogue n times, and write that one file at once.
  if (input.requireSnapshot && source.report.used !== "snapshot") {
    throw new PharmafeedError("SNAPSHOT_MISSING", `the shared snapshot cannot be used (${source.report.fallback ?? "no snapshot"}): a run of many shops from the snapshot never reads the catalogue itself; run \`generate --catalogue-only\` (or --source full) first (docs/shops.md)`);
  }
  // The reference lists: read once (or from the snapshot), whatever the number of shops.
  let reference: ReferenceLists | undefined = source.reference;
  const opened: Awaited<ReturnType<typeof openShop>>[] = [];
  for (const shop of shops) {
    // Every shop's context shares the first one's reference data and per-product work: a product's facts, texts and photos are computed once for all shops.
    const one = await openShop(input, shop, reference, client.userAgent, opened[0]?.target.context);
    reference = one.reference;
    opened.push(one);
  }
  const stream = await source.open(reference ?? (await loadContext(client, input.config, started, undefined)).reference);
  // The snapshot whose line numbers the state log gives: known once the source is open (finish() closes it).
  for (const { target, state } of opened) state.record = { runs: target.runs, context: target.context, generation: source.generation };
  const { delta, reuse: _, ...used } = source.report;
  logger.info("source", { ...used, ...delta });
  const progress = createProgress({ label: "generate", tty: input.tty, logger });
  let received = 0;
  const reject = (rejection: Rejection) => {
    for (const { state } of opened) state.reject(rejection);
    stream.reject(rejection);
  };
  const streamStarted = performance.now();
  const workers = await mapAll({ input, shops, opened, source, stream, reject, onProducts: (count) => progress.update((received = count), stream.total) });
  progress.done();
  await source.finish(stream.total);
  const seconds = (performance.now() - streamStarted) / 1000;
  // For the nightly log: how fast, on how many threads, and the process's memory high-water mark so far.
  logger.info("products mapped", {
    products: received,
    ...(shops.length === 1 ? {} : { shops: shops.length }),
    seconds: Math.round(seconds * 10) / 10,
    perSecond: Math.round(received / Math.max(seconds, 1e-3)),
    workers,
    ...source.report.reuse,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  });
  const { stats } = stream;
  return {
    // A run from the snapshot reports the counts of the catalogue read the snapshot holds (readAt).
    source: { ...source.counts({ total: stream.total ?? 0, received, rejected: stats.rejected, rejectedByCode }), retries: stats.retries, resumes: stats.resumes },
    sync: { ...source.report, ...(source.report.delta ? { delta: { ...source.report.delta } } : {}), ...(source.report.reuse ? { reuse: { ...source.report.reuse } } : {}) },
  };
}

type Stream = Awaited<ReturnType<RunSource["open"]>>;

/**
 * Every product into every channel of every shop: a refresh of one shop gives the last run's
 * products, each to copy or to map again (rowcache/reuse.ts); any other run, the source's lines.
 * Returns the worker count.
 */
async function mapAll(a: {
  input: ProductsInput;
  shops: readonly ShopProducts[];
  opened: readonly { target: Target; state: StateLogSink }[];
  source: RunSource;
  stream: Stream;
  reject: (rejection: Rejection) => void;
  onProducts: (count: number) => void;
}): Promise<number> {
  const { input, stream, reject, onProducts, source, opened } = a;
  const one = opened.length === 1 ? opened[0]! : undefined;
  const explain = one?.state.explain;
  let received = 0;
  const plan =
    !input.reuse ? { reason: "--no-reuse" }
    : !one ? { reason: "a run of many shops maps every product (docs/shops.md)" }
    : input.dryRun || !explain ? { reason: "a dry run, or a run whose explain index could not be started, maps every product" }
    : await planReuse({ outputDir: a.shops[0]!.outputDir, runs: one.target.runs, context: one.target.context, base: source.reuseBase });
  const reuse = "reader" in plan && one && explain ? new ReuseSource({ reader: plan.reader, base: source.reuseBase!, outputDir: a.shops[0]!.outputDir, runs: one.target.runs, context: one.target.context, explain, reject }) : undefined;
  try {
    const workers = await dispatch(reuse ?? { lines: () => stream.lines(), reject }, opened.map((o) => o.target), {
      // A refresh copies in this thread, which bounds it; on two cores, worker threads mapping its other
      // products made it slower and heavier (78,041 products, 10 % of the offers changed: 17.2-19.8 s
      // at 375-441 MB against 15.6 s at 234 MB, bench/refresh.ts, issue 25).
      workers: reuse ? 0 : (input.workers ?? workersFor(thisMachine(), input.logger)),
      // Workers asked for explicitly are used whatever the catalogue's size.
      minProducts: input.shardMinProducts ?? (input.workers === undefined ? SHARD_MIN_PRODUCTS : 0),
      onProducts: (count) => onProducts((received = count)),
    });
    source.report.reuse = reuse ? reuse.finish() : { reused: 0, mapped: received, reason: "reason" in plan ? plan.reason : "" };
    return workers;
  } finally {
    reuse?.close();
  }
}
