/**
 * The feeds `serve` answers: the `live` files of the current manifest.json,
 * each opened and checked (size, and sha256 for the feed itself) when the
 * manifest is read, then read through that open handle.
 *
 * Why hold the files open: `generate` renames every channel's new file into
 * place first and writes the manifest last. In between, the name on disk is the
 * new file while the manifest still describes the old one. Reading from the
 * handle opened for the old manifest keeps bytes, Content-Length and ETag in
 * agreement through that window; the switch happens when the new manifest is
 * read and its files check out. A download in progress keeps its handle.
 *
 * The manifest is stat'ed on each request (one cheap syscall, shared by
 * concurrent requests); a changed stat triggers one reload, awaited by the
 * requests that saw it. Entries unchanged since the last load keep their handle
 * (no rehash); a file that fails its check is logged and the previous file of
 * that channel, if any, is served until the next manifest.
 *
 * Channels follow the manifest: when a new manifest arrives, the channels'
 * access rules are read again from the config (`reloadAccess`), so a channel
 * added or renamed by a run is served without a restart, and one the manifest
 * no longer lists is not; each change is logged. A feed the manifest still lists
 * but the config no longer names (held by generate until retired) keeps its rules.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { AccessConfig } from "../config/schema.js";
import type { Logger } from "../log.js";
import { readJournal } from "../publish/journal.js";
import { type LiveFile, type Manifest, readPreviousManifest } from "../publish/manifest.js";
import { failureOf, failureRecordPaths, readRunRecord, type SeenRecord, withFailure } from "../publish/failure-record.js";
import { DEFAULT_STALE_AFTER_MS } from "../publish/lock.js";
import { heldAccess } from "./held-access.js";
import { openInside } from "./safe-open.js";
import { SharedFile } from "./shared-file.js";
import { MANIFEST_FILE } from "../core/layout.js";

export interface Representation {
  /** The file name in the output directory (and in the URL). */
  name: string;
  file: SharedFile;
  /** Quoted, strong: `"<sha256>"`, or `"<sha256>-gz"` for the gzip twin. */
  etag: string;
  lastModified: Date;
  bytes: number;
}

export interface LiveFeed {
  channel: string;
  access: AccessConfig;
  /** The feed's own media type with charset, from the manifest. */
  contentType: string;
  identity: Representation;
  gzip?: Representation;
}

export interface Lookup {
  feed: LiveFeed;
  /** Asked for by the twin's own name (`<file>.gz`): sent as application/gzip, not as an encoding. */
  gzipFile: boolean;
}

export interface Snapshot {
  manifest: Manifest | undefined;
  /** The file it was read from: manifest.json, or a copy in history/ when manifest.json is lost. */
  from?: string;
  byName: ReadonlyMap<string, Lookup>;
  feeds: readonly LiveFeed[];
}

const RETRY_MS = 5_000;
const EMPTY: Snapshot = { manifest: undefined, byName: new Map(), feeds: [] };

export class LiveFeeds {
  private snapshot: Snapshot = EMPTY;
  private signature = "";
  private checking: Promise<void> | undefined;
  private retryAt = Number.POSITIVE_INFINITY;
  /** Handles by manifest entry, reused while the entry does not change. */
  private held = new Map<string, Representation>();

  constructor(
    private readonly outputReal: string,
    private access: ReadonlyMap<string, AccessConfig>,
    private readonly logger: Logger,
    /** Reads the channels' access rules again (the config); a failure keeps the ones known. */
    private readonly reloadAccess?: () => Promise<ReadonlyMap<string, AccessConfig>>,
    /** lock.staleAfterMs: a started run record whose heartbeat is older than this is a run that died. */
    private readonly runStaleAfterMs = DEFAULT_STALE_AFTER_MS,
  ) {}

  /** The manifest as read, before the run record's overlay (a failed or died run). */
  private base: Manifest | undefined;
  private record: SeenRecord | undefined;

  /** The manifest every surface reports: the base one, or the run record's failure over it. */
  private recordReadAt = 0;
  private async overlay(): Promise<void> {
    this.recordReadAt = Date.now();
    this.record = await readRunRecord(this.outputReal);
    const reported = withFailure(this.base, failureOf(this.record, this.runStaleAfterMs));
    if (reported !== this.snapshot.manifest) this.snapshot = { ...this.snapshot, manifest: reported };
  }

  /** The current snapshot, after reloading the manifest if it changed on disk. */
  async current(): Promise<Snapshot> {
    this.checking ??= this.check().finally(() => (this.checking = undefined));
    await this.checking;
    return this.snapshot;
  }

  /** Without looking at the disk (status page, healthz after current()). */
  get now(): Snapshot {
    return this.snapshot;
  }

  private async check(): Promise<void> {
    // The manifest, and the failure records of runs that could not write one (publish/failure-record.ts).
    const signatures = await Promise.all(
      [join(this.outputReal, MANIFEST_FILE), ...failureRecordPaths(this.outputReal)].map((file, i) =>
        stat(file).then(
          // A run record's mtime is its heartbeat: not a change of what it says.
          (s) => (i === 0 ? `${s.ino}:${s.size}:${s.mtimeMs}` : `${s.ino}:${s.size}`),
          () => "missing",
        ),
      ),
    );
    const signature = signatures[0] === "missing" && signatures.slice(1).every((s) => s === "missing") ? "missing" : signatures.join("|");
    if (signature === this.signature && Date.now() < this.retryAt) {
      // A running run's record does not change when its process dies: its liveness is looked at
      // again, at most once a second (feed requests come far more often during a run).
      if (this.record?.record.state === "started" && Date.now() - this.recordReadAt >= 1000) await this.overlay();
      return;
    }
    const changed = signature !== this.signature && this.signature !== "";
    this.signature = signature;
    if (changed) await this.refreshAccess();
    // The first load (startup) is not a change; serve logs what it serves then.
    await this.reload(changed);
  }

  /** A new manifest may list channels added to the config since serve started. */
  private async refreshAccess(): Promise<void> {
    if (!this.reloadAccess) return;
    try {
      // A channel the config no longer names keeps its rules: the manifest may still list its feed (held-feeds.ts).
      this.access = new Map([...this.access, ...(await this.reloadAccess())]);
    } catch (error) {
      // Whole: a refused config's first line only says "configuration refused", its problems follow.
      this.logger.warn("config not read again; serving the channels known so far", { error: (error as Error).message });
    }
  }

  /** One line per channel that starts or stops being served, or changes file. */
  private logChanges(before: readonly LiveFeed[], after: readonly LiveFeed[]): void {
    const was = new Map(before.map((f) => [f.channel, f.identity.name]));
    const now = new Map(after.map((f) => [f.channel, f.identity.name]));
    for (const [channel, file] of now) {
      const old = was.get(channel);
      if (old === undefined) this.logger.info("channel now served", { channel, file });
      else if (old !== file) this.logger.info("channel now served under another file name", { channel, file, was: old });
    }
    for (const [channel, file] of was) if (!now.has(channel)) this.logger.info("channel no longer served", { channel, file });
  }

  private async reload(logChanges = false): Promise<void> {
    // manifest.json is replaced by rename, so a missing or unreadable one was lost (by hand):
    // the newest copy in history/ is what the last run published (each file is still
    // checked against its entry below), so a restart does not stop every feed.
    const last = await readPreviousManifest(this.outputReal);
    // A run killed between its renames and manifest.json left the entries it was publishing in its
    // journal (publish/journal.ts): a file that matches neither is not served, one that matches either is.
    const journal = await readJournal(this.outputReal);
    if (!last && !journal) {
      if (this.signature !== "missing") this.logger.warn("manifest.json unreadable; serving the previous files", { file: MANIFEST_FILE });
      // No manifest ever, but a run that failed before it could write one (or died): say so.
      await this.overlay();
      return;
    }
    const manifest = last?.manifest;
    const from = last?.from;
    if (from !== undefined && from !== MANIFEST_FILE) this.logger.warn("manifest.json is missing or unreadable; serving what the last run's copy lists", { from });
    const journaled = new Map((journal?.channels ?? []).map((e) => [e.name, e]));
    const entries = [...(manifest?.channels ?? []), ...[...journaled.values()].filter((e) => !manifest?.channels.some((c) => c.name === e.name))];
    let failed = false;
    const held = new Map<string, Representation>();
    const feeds: LiveFeed[] = [];
    for (const listed of entries) {
      const access = this.access.get(listed.name) ?? heldAccess(listed.name, this.access);
      if (!access) {
        if (listed.live) this.logger.warn("a feed the config no longer names is not served: its access rules are unknown since serve started", { channel: listed.name, file: listed.live.file });
        continue;
      }
      let feed = listed.live ? await this.open(listed.name, access, listed.contentType, listed.live, held) : undefined;
      const next = journaled.get(listed.name);
      if (!feed && next?.live && next !== listed) {
        feed = await this.open(next.name, access, next.contentType, next.live, held);
        if (feed) this.logger.warn("serving the file an interrupted run published (publish-journal.json)", { channel: next.name, file: next.live.file });
      }
      if (!listed.live && !feed) continue;
      if (feed) {
        feeds.push(feed);
        continue;
      }
      failed = true;
      const previous = this.snapshot.feeds.find((f) => f.channel === listed.name);
      if (previous) {
        feeds.push(previous);
        for (const [key, rep] of this.held) if (rep === previous.identity || rep === previous.gzip) held.set(key, rep);
      }
    }
    const byName = new Map<string, Lookup>();
    for (const feed of feeds) {
      if (!byName.has(feed.identity.name)) byName.set(feed.identity.name, { feed, gzipFile: false });
      if (feed.gzip && !byName.has(feed.gzip.name)) byName.set(feed.gzip.name, { feed, gzipFile: true });
    }
    const retired = [...this.held].filter(([key]) => !held.has(key));
    if (logChanges) this.logChanges(this.snapshot.feeds, feeds);
    this.held = held;
    // A run that failed without writing a manifest (a full disk, a config it could not load) or
    // died without a word is what every surface reports then.
    this.base = manifest;
    this.snapshot = { manifest, ...(from === undefined ? {} : { from }), byName, feeds };
    await this.overlay();
    this.retryAt = failed ? Date.now() + RETRY_MS : Number.POSITIVE_INFINITY;
    await Promise.all(retired.map(([, rep]) => rep.file.retire()));
  }

  private async open(channel: string, access: AccessConfig, contentType: string, live: LiveFile, held: Map<string, Representation>): Promise<LiveFeed | undefined> {
    const lastModified = new Date(live.publishedAt);
    const identity = await this.representation(`${live.file}|${live.sha256}|${live.publishedAt}|${live.bytes}`, held, live.file, live.bytes, live.sha256, `"${live.sha256}"`, lastModified);
    if (!identity) return undefined;
    let gzip: Representation | undefined;
    if (live.gzip) {
      gzip = await this.representation(`${live.gzip.file}|${live.sha256}|${live.publishedAt}|${live.gzip.bytes}`, held, live.gzip.file, live.gzip.bytes, undefined, `"${live.sha256}-gz"`, lastModified);
      // Without its twin the feed is still served, uncompressed.
    }
    return { channel, access, contentType, identity, ...(gzip ? { gzip } : {}) };
  }

  private async representation(
    key: string,
    held: Map<string, Representation>,
    name: string,
    bytes: number,
    sha256: string | undefined,
    etag: string,
    lastModified: Date,
  ): Promise<Representation | undefined> {
    const kept = this.held.get(key);
    if (kept) {
      held.set(key, kept);
      return kept;
    }
    const opened = await openInside(this.outputReal, this.outputReal, name);
    if (!opened) {
      this.logger.warn("live file missing or not a regular file; not served", { file: name });
      return undefined;
    }
    const file = new SharedFile(opened.handle, opened.stat.size);
    const actual = opened.stat.size !== bytes ? `${opened.stat.size} bytes` : sha256 !== undefined && (await file.sha256()) !== sha256 ? "another sha256" : undefined;
    if (actual !== undefined) {
      this.logger.warn("live file does not match the manifest; not served", { file: name, expected: `${bytes} bytes`, found: actual });
      await file.retire();
      return undefined;
    }
    const rep = { name, file, etag, lastModified, bytes };
    held.set(key, rep);
    return rep;
  }

  /** Closes every handle once its downloads end. */
  async close(): Promise<void> {
    const all = [...this.held.values()];
    this.held.clear();
    this.snapshot = EMPTY;
    await Promise.all(all.map((rep) => rep.file.retire()));
  }
}
