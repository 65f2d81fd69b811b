/**
 * The shared snapshot's copy off the machines' disks (docs/shops.md, "Beyond one machine"): the
 * catalogue read uploads output/state/snapshot.pfs, each shard downloads it before it maps.
 *
 *   upload:    openSnapshot (every digest) ─> sha256 of the whole file ─> put whole, with {sha256, generation, syncedAt}
 *              ─> HEAD: its length and metadata are ours
 *   download:  HEAD ─┬─ the local snapshot is that generation and opens ─> nothing to do
 *                    └─ GET ─> state/.snapshot.pfs.<random>.tmp-<pid>, sha256 and length while it streams
 *                       ─> against the metadata ─> openSnapshot (every digest) ─> rename over snapshot.pfs (atomic)
 *
 * A copy is never trusted for being in the bucket: what a shard maps has passed the whole file's
 * sha256 computed where it was written and the block digests any local snapshot passes. Shards on
 * one machine may download at once: each into its own temporary name, each rename whole. A download
 * that fails in any way leaves the local snapshot as it was and says why; the run then decides with
 * the local one as it would without a bucket (run-products.ts: used while young enough, else
 * SNAPSHOT_MISSING), and that error carries the reason (withDownloadFailure).
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readdir, rm, stat, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { EXCLUSIVE_FLAGS, renameIntoPlace } from "../core/atomic-file.js";
import { backoffDelay, retrying } from "../core/retry.js";
import { isPharmafeedError, PharmafeedError } from "../errors.js";
import type { Logger } from "../log.js";
import { isAlive } from "../publish/lock.js";
import { openSnapshot } from "./reader.js";

/** What the upload says of the copy, as the object's metadata: the whole file's digest and which snapshot it is. */
export interface RemoteCopy {
  /** Its length, as the server gives it. */
  bytes: number;
  /** sha256 of the whole file, hex, computed on the machine that wrote it. */
  sha256: string;
  /** SnapshotInfo.generation: a shard whose local snapshot is this one downloads nothing. */
  generation: string;
  /** SnapshotInfo.syncedAt: an older snapshot never replaces a newer copy. */
  syncedAt: string;
}

/**
 * Where the copy is kept: one driver per kind (destinations/s3-snapshot.ts). Failures are
 * PharmafeedErrors whose message starts with `target`: SOURCE_AUTH, SOURCE_NETWORK, SOURCE_TIMEOUT,
 * SOURCE_HTTP (context.status), STORE_INVALID (an object that is no copy of ours).
 */
export interface RemoteStore {
  /** "s3://bucket/key at host": names the copy in every message; never a secret. */
  readonly target: string;
  /** Further attempts after a failed transfer; the first delay, doubled each time. */
  readonly retries: number;
  readonly retryDelayMs: number;
  /** The copy's metadata, or undefined when there is none. */
  head(): Promise<RemoteCopy | undefined>;
  /** Writes `body` as the copy, visible to readers only once whole. */
  put(body: Readable, copy: Omit<RemoteCopy, "bytes">): Promise<void>;
  /** The copy as stored now: its metadata and its bytes (consumed or destroyed by the caller). */
  get(): Promise<{ copy: RemoteCopy; body: Readable }>;
  close(): Promise<void>;
}

/** What a shard's download came to. */
export type Fetched = { outcome: "current" | "downloaded"; copy: RemoteCopy } | { outcome: "failed"; reason: string };

/** Refused credentials, no object, or bytes that are not the snapshot uploaded: asking again changes nothing. */
function final(error: unknown): boolean {
  if (!isPharmafeedError(error)) return false;
  const status = typeof error.context.status === "number" ? error.context.status : undefined;
  return error.code === "SOURCE_AUTH" || error.code === "STORE_INVALID" || (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429);
}

async function attempts<T>(store: RemoteStore, what: string, attempt: () => Promise<T>, logger: Logger, signal: AbortSignal | undefined): Promise<T> {
  const policy = { maxRetries: store.retries, baseMs: store.retryDelayMs, maxMs: Number.MAX_SAFE_INTEGER, jitter: "none" as const };
  return retrying(attempt, {
    next: (error, failures) => {
      if (failures > policy.maxRetries || final(error)) throw error;
      const delay = backoffDelay(failures - 1, policy);
      logger.warn(`shared snapshot ${what} failed, retrying`, { target: store.target, attempt: failures, inMs: delay, error: (error as Error).message });
      return delay;
    },
    ...(signal ? { signal } : {}),
  });
}

/** The local snapshot's generation, when it opens (every digest checked); undefined otherwise. */
function localGeneration(file: string): string | undefined {
  try {
    const snapshot = openSnapshot(file);
    snapshot?.close();
    return snapshot?.info.generation;
  } catch {
    return undefined;
  }
}

async function sha256Of(handle: FileHandle): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of handle.createReadStream({ start: 0, autoClose: false }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest("hex"), bytes };
}

/**
 * Uploads the local snapshot at `file` as the copy, and checks what the server then holds. Nothing
 * is sent when the copy is that snapshot already, or a newer one (another catalogue read's).
 * Failures (retries spent) are thrown, each naming the copy.
 */
export async function uploadSnapshot(store: RemoteStore, file: string, options: { logger: Logger; signal?: AbortSignal }): Promise<void> {
  const { logger } = options;
  // Never a damaged snapshot to every shard: it passes the digests a shard's open will check.
  const snapshot = openSnapshot(file);
  if (!snapshot) throw new PharmafeedError("STORE_INVALID", `no snapshot to upload to ${store.target} (${file})`, { context: { file } });
  snapshot.close();
  const { info } = snapshot;
  // One descriptor for the digest and every attempt: the bytes sent are the bytes hashed. (A snapshot renamed
  // over between the open above and this one would go up under the other's generation: every download refuses it.)
  const handle = await open(file, "r");
  try {
    const started = performance.now();
    const { sha256, bytes } = await sha256Of(handle);
    const copy = { sha256, generation: info.generation ?? sha256, syncedAt: info.syncedAt };
    const there = await store.head().catch(() => undefined);
    if (there?.generation === copy.generation && there.sha256 === sha256) return logger.info("shared snapshot already uploaded", { target: store.target, generation: copy.generation });
    if (there && Date.parse(there.syncedAt) > Date.parse(copy.syncedAt)) {
      return logger.warn("a newer shared snapshot is in the bucket: left as it is", { target: store.target, syncedAt: copy.syncedAt, bucketSyncedAt: there.syncedAt });
    }
    await attempts(
      store,
      "upload",
      async () => {
        await store.put(handle.createReadStream({ start: 0, autoClose: false }), copy);
        const stored = await store.head();
        if (!stored) throw new PharmafeedError("WRITE_FAILED", `${store.target}: not there right after its upload`);
        if (stored.bytes !== bytes) throw new PharmafeedError("WRITE_FAILED", `${store.target}: stored ${stored.bytes} bytes, the local snapshot has ${bytes}`);
        if (stored.sha256 !== sha256 || stored.generation !== copy.generation) throw new PharmafeedError("WRITE_FAILED", `${store.target}: its metadata names another snapshot (generation ${stored.generation}) than the one uploaded (${copy.generation})`);
      },
      logger,
      options.signal,
    );
    logger.info("shared snapshot uploaded", { target: store.target, bytes, generation: copy.generation, syncedAt: copy.syncedAt, seconds: Math.round(performance.now() - started) / 1000 });
  } finally {
    await handle.close();
  }
}

/** A temporary untouched this long is no transfer in progress, whichever machine's (a state/ folder on NFS). */
const DEAD_AFTER_MS = 3_600_000;

/**
 * Snapshots half downloaded (or half written) by processes that died: a run of many shops clears the
 * temporaries of its shops' folders (run-output.ts), not of the shared state/ folder, and each is a
 * whole snapshot's size. Spared: a live process's here, and any written to within the hour (a pid
 * says nothing of another machine's process).
 */
async function clearDead(file: string): Promise<void> {
  const pattern = new RegExp(`^\\.${basename(file).replace(/\./g, "\\.")}\\.(?:[0-9a-f]+\\.)?tmp-(\\d+)$`);
  const dir = dirname(file);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(pattern.exec(name)?.[1] ?? Number.NaN);
      if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) return;
      const { mtimeMs } = await stat(join(dir, name));
      if (Date.now() - mtimeMs > DEAD_AFTER_MS) await rm(join(dir, name), { force: true });
    }),
  );
}

/** One GET into a temporary file beside `file`, checked, then renamed over it. */
async function fetchOnce(store: RemoteStore, file: string): Promise<RemoteCopy> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  // Its own per process and attempt; what a killed shard left, clearDead() removes.
  const tmp = join(dir, `.${basename(file)}.${randomBytes(6).toString("hex")}.tmp-${process.pid}`);
  const refused = (what: string) => new PharmafeedError("STORE_INVALID", `${store.target}: download refused and deleted: ${what}`);
  let handle: FileHandle | undefined;
  try {
    const { copy, body } = await store.get();
    handle = await open(tmp, EXCLUSIVE_FLAGS, 0o644);
    const hash = createHash("sha256");
    let bytes = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
        await handle.write(chunk);
      }
    } catch (cause) {
      body.destroy();
      throw new PharmafeedError("SOURCE_NETWORK", `${store.target}: the download was cut after ${bytes} of ${copy.bytes} bytes: ${(cause as Error).message}`, { cause });
    }
    if (bytes !== copy.bytes) throw new PharmafeedError("SOURCE_NETWORK", `${store.target}: the download ended after ${bytes} of ${copy.bytes} bytes`);
    if (hash.digest("hex") !== copy.sha256) throw refused("its bytes do not match the sha256 its upload gave them (damaged in the bucket or on the way)");
    await handle.sync();
    await handle.close();
    handle = undefined;
    let info;
    try {
      const snapshot = openSnapshot(tmp);
      snapshot?.close();
      info = snapshot?.info;
    } catch (error) {
      throw refused((error as Error).message.replace(`${tmp}: `, ""));
    }
    if (info?.generation !== copy.generation) throw refused(`it is snapshot generation ${info?.generation ?? "(none)"}, its metadata says ${copy.generation}`);
    await renameIntoPlace(tmp, file, { synced: true });
    return copy;
  } catch (error) {
    await handle?.close().catch(() => {});
    await rm(tmp, { force: true });
    throw error;
  }
}

/**
 * Brings the copy to `file` unless the local snapshot is that copy already. Never throws: a
 * failure is logged and returned with its reason (no secret in it), the local snapshot as it was.
 */
export async function downloadSnapshot(store: RemoteStore, file: string, options: { logger: Logger; signal?: AbortSignal }): Promise<Fetched> {
  const { logger, signal } = options;
  try {
    const copy = await attempts(store, "check", () => store.head(), logger, signal);
    if (!copy) throw new PharmafeedError("SOURCE_HTTP", `${store.target}: no snapshot there (generate --catalogue-only uploads it)`, { context: { status: 404 } });
    if (localGeneration(file) === copy.generation) {
      logger.info("shared snapshot up to date", { target: store.target, generation: copy.generation, syncedAt: copy.syncedAt });
      return { outcome: "current", copy };
    }
    const started = performance.now();
    await clearDead(file).catch(() => {});
    const got = await attempts(store, "download", () => fetchOnce(store, file), logger, signal);
    logger.info("shared snapshot downloaded", { target: store.target, bytes: got.bytes, generation: got.generation, syncedAt: got.syncedAt, seconds: Math.round(performance.now() - started) / 1000 });
    return { outcome: "downloaded", copy: got };
  } catch (error) {
    // Stopped (SIGTERM): the run's own interruption, not a download failure to work around.
    signal?.throwIfAborted();
    const reason = (error as Error).message;
    logger.warn("shared snapshot not downloaded: the local one decides", { target: store.target, reason });
    return { outcome: "failed", reason };
  }
}

/** A shard that could not use the shared snapshot after a failed download says both: why not, and why the copy did not come. */
export function withDownloadFailure(error: unknown, fetched: Fetched | undefined): unknown {
  if (fetched?.outcome !== "failed" || !isPharmafeedError(error, "SNAPSHOT_MISSING")) return error;
  return new PharmafeedError("SNAPSHOT_MISSING", `${error.message}; its copy in the bucket was not downloaded: ${fetched.reason}`, { cause: error, context: error.context });
}
