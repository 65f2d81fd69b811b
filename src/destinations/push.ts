/**
 * Pushes channels' published files to their destinations:
 *
 *   jobs (channel, files, destinations, last records)
 *     ─> one driver per distinct destination (channels sharing the main file's list share a connection)
 *     ─> per driver, its files one after the other: unchanged (digest as last time) ─> skipped,
 *        else put ─> retried with doubling delays ─> verified
 *     ─> records per channel and destination, and a Problem per failed destination and cause
 *
 * Drivers run side by side. A driver that failed a file (retries spent) is not
 * asked for more: its other files are recorded as not tried, with the same reason.
 * One server down is one problem naming its channels, not one per channel.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { backoffDelay, type RetryPolicy, retrying } from "../core/retry.js";
import type { Logger } from "../log.js";
import type { Problem } from "../publish/manifest.js";
import type { DestinationRecord, UploadedFile } from "../publish/destination-record.js";
import { fileLedger, type Ledger, memoryLedger } from "./_ledger.js";
import { createDriver } from "./registry.js";
import { type DestinationConfig, SECRET_FIELDS } from "./settings.js";
import { DestinationFailure, type Driver, oneLine, type UploadItem } from "./types.js";
import { LEDGER_FILE } from "../core/layout.js";

/** A published file of a channel, as the manifest lists it. */
export interface LocalFile extends Omit<UploadItem, "sha256"> {
  /** Known for the feed (manifest); computed for its .gz twin. */
  sha256?: string;
}

export interface PushJob {
  channel: string;
  files: LocalFile[];
  destinations: DestinationConfig[];
  /** The channel's records of the last push (manifest), by destination name. */
  last: readonly DestinationRecord[];
}

export interface PushOptions {
  logger: Logger;
  /** Upload even files whose digest is the one last uploaded (push --force). */
  force?: boolean;
  /** Say what would go, connect to nothing. */
  dryRun?: boolean;
  /** The output directory: the list of temporaries started on servers is kept there (LEDGER_FILE); without it, in memory. */
  outputDir?: string;
  now?: () => Date;
  /** The run's: a stop ends the wait before a retry (the file is then not sent, said as `interrupted`). */
  signal?: AbortSignal;
}

export interface PushResult {
  records: Map<string, DestinationRecord[]>;
  problems: Problem[];
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Secrets of the destination replaced in a message (a server or library that echoes one must not put it in a log or manifest). */
function redact(text: string, config: DestinationConfig): string {
  let out = text;
  for (const field of SECRET_FIELDS) {
    const value = (config as Record<string, unknown>)[field];
    // As given, and as a failure's one line shows it (a private key's newlines folded).
    if (typeof value === "string" && value.length >= 4) out = out.split(value).join("***").split(oneLine(value)).join("***");
  }
  return out;
}


interface Task {
  job: PushJob;
  config: DestinationConfig;
  record: DestinationRecord;
  known: Map<string, UploadedFile>;
}

export async function pushChannels(jobs: readonly PushJob[], options: PushOptions): Promise<PushResult> {
  const { logger } = options;
  const now = options.now ?? (() => new Date());
  const ledger: Ledger = options.outputDir && !options.dryRun ? await fileLedger(join(options.outputDir, LEDGER_FILE)) : memoryLedger();
  const make = (config: DestinationConfig, names: ReadonlySet<string>) => createDriver(config, { ledger, names, warn: (message) => logger.warn(message, { destination: config.name }) });
  // Digests first: a feed changed on disk since its publish is not sent (the manifest's digest is what passed the gate).
  const digests = new Map<string, string | DestinationFailure>();
  for (const file of jobs.flatMap((j) => j.files)) {
    if (digests.has(file.local)) continue;
    const actual = await sha256Of(file.local).catch((error: Error) => new DestinationFailure("local", `cannot read ${file.local}: ${error.message}`));
    const mismatch = typeof actual === "string" && file.sha256 !== undefined && actual !== file.sha256;
    digests.set(file.local, mismatch ? new DestinationFailure("local", `${file.local} changed since it was published (sha256 ${actual}, manifest ${file.sha256})`) : actual);
  }
  const groups = new Map<string, Task[]>();
  for (const job of jobs) {
    for (const config of job.destinations) {
      const last = job.last.find((r) => r.name === config.name && r.kind === config.kind);
      const record: DestinationRecord = { name: config.name, kind: config.kind, target: "", at: "", ok: true, uploadedBytes: 0, uploaded: 0, unchanged: 0, files: [] };
      const key = JSON.stringify(config);
      groups.set(key, [...(groups.get(key) ?? []), { job, config, record, known: new Map((last?.files ?? []).map((f) => [f.name, f])) }]);
    }
  }

  await Promise.all([...groups.values()].map((tasks) => runDriver(tasks, digests, { ...options, now, make, logger })));

  const records = new Map<string, DestinationRecord[]>();
  const problems: Problem[] = [];
  for (const tasks of groups.values()) {
    // Channels failed by the same cause at the same destination: one problem, the cause said once.
    const causes = new Map<string, { code: string; name: string; channels: string[] }>();
    for (const { job, record, known, config } of tasks) {
      record.files = [...known.values()].sort((a, b) => a.name.localeCompare(b.name));
      record.at = now().toISOString();
      records.set(job.channel, [...(records.get(job.channel) ?? []), record]);
      if (!record.ok) {
        record.reason = redact(record.reason ?? "", config);
        const cause = record.reason.replace(/^not tried after: /, "");
        const entry = causes.get(cause) ?? causes.set(cause, { code: `DESTINATION_${(record.code ?? "failed").toUpperCase()}`, name: record.name, channels: [] }).get(cause)!;
        entry.channels.push(job.channel);
      }
    }
    for (const [cause, { code, name, channels }] of causes) {
      const many = channels.length > 1;
      problems.push({
        kind: "destination",
        code,
        ...(many ? {} : { channel: channels[0]! }),
        reason: `${problemPrefix(name)}${many ? ` for ${channels.length} channels (${channels.join(", ")})` : ""}: ${cause}`,
      });
    }
  }
  return { records, problems };
}

/** How a destination's problem starts: after-publish.ts finds the problems of a destination pushed again by it. */
export function problemPrefix(destination: string): string {
  return `upload to ${destination} failed`;
}

async function runDriver(
  tasks: Task[],
  digests: Map<string, string | DestinationFailure>,
  options: PushOptions & { now: () => Date; make: (c: DestinationConfig, names: ReadonlySet<string>) => Promise<Driver>; logger: Logger },
): Promise<void> {
  const { config } = tasks[0]!;
  let driver: Driver | undefined;
  let broken: DestinationFailure | undefined;
  try {
    driver = options.dryRun ? undefined : await options.make(config, new Set(tasks.flatMap((t) => t.job.files.map((f) => f.name))));
  } catch (error) {
    broken = new DestinationFailure("local", `${config.kind} client not loaded: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    for (const task of tasks) {
      const { record, known, job } = task;
      record.target = driver?.target ?? `${config.kind} ${config.name}`;
      for (const file of job.files) {
        const digest = digests.get(file.local)!;
        // Only a put that failed leaves the remote file unknown (old or new); one not tried is as it was.
        const fail = (failure: DestinationFailure, tried = false) => {
          if (tried) known.delete(file.name);
          if (record.ok) Object.assign(record, { ok: false, code: failure.code, reason: failure.message });
        };
        if (typeof digest !== "string") {
          fail(digest);
          continue;
        }
        if (!options.force && known.get(file.name)?.sha256 === digest) {
          record.unchanged++;
          continue;
        }
        if (broken) {
          fail(new DestinationFailure(broken.code, `not tried after: ${broken.message}`));
          continue;
        }
        if (!driver) {
          if (!options.dryRun) continue;
          options.logger.info("would upload", { channel: job.channel, destination: config.name, file: file.name, bytes: file.bytes });
          record.uploaded++;
          record.uploadedBytes += file.bytes;
          continue;
        }
        const item: UploadItem = { ...file, sha256: digest };
        const outcome = await putWithRetries(driver, item, config, options.logger, job.channel, options.signal);
        if (outcome instanceof DestinationFailure) {
          broken = outcome;
          fail(outcome, true);
          options.logger.error("upload failed", { channel: job.channel, destination: config.name, file: file.name, code: outcome.code, error: redact(outcome.message, config) });
          continue;
        }
        known.set(file.name, { name: file.name, bytes: file.bytes, sha256: digest, at: options.now().toISOString() });
        record.uploaded++;
        record.uploadedBytes += file.bytes;
      }
    }
  } finally {
    await driver?.close();
  }
}

async function putWithRetries(driver: Driver, item: UploadItem, config: DestinationConfig, logger: Logger, channel: string, signal?: AbortSignal): Promise<DestinationFailure | undefined> {
  const policy: RetryPolicy = { maxRetries: config.retries, baseMs: config.retryDelayMs, maxMs: Number.MAX_SAFE_INTEGER, jitter: "none" };
  try {
    await retrying(
      async () => {
        const started = performance.now();
        const stored = await driver.put(item);
        logger.info("uploaded", { channel, destination: config.name, file: item.name, bytes: stored.bytes, checked: stored.hash ?? "size", seconds: Math.round(performance.now() - started) / 1000 });
      },
      {
        next: (error, failures) => {
          const failure = asFailure(error);
          // Refused credentials do not get better by asking again (and lock accounts on some servers).
          if (failures > policy.maxRetries || failure.code === "auth") throw failure;
          const delay = backoffDelay(failures - 1, policy);
          logger.warn("upload failed, retrying", { channel, destination: config.name, file: item.name, attempt: failures, inMs: delay, error: redact(failure.message, config) });
          return delay;
        },
        ...(signal ? { signal } : {}),
      },
    );
    return undefined;
  } catch (error) {
    // Stopped (SIGTERM) while waiting to try again: the file is not sent, said as such; the local publish stands.
    if (signal?.aborted) return new DestinationFailure("interrupted", `${item.name}: not sent, the run was stopped before the next attempt`, { cause: error });
    return asFailure(error);
  }
}

function asFailure(error: unknown): DestinationFailure {
  return error instanceof DestinationFailure ? error : new DestinationFailure("refused", error instanceof Error ? error.message : String(error), { cause: error });
}
