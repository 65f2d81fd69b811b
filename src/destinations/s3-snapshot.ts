/**
 * The shared snapshot's copy in an S3-compatible bucket (AWS S3, GCS with HMAC keys, R2, MinIO):
 * one object, `<prefix>snapshot.pfs`, its digest and generation in its user metadata
 * (x-amz-meta-sha256, -generation, -synced-at); snapshot/remote.ts checks and moves it. Written
 * by @aws-sdk/lib-storage's Upload: a PUT, or above partSizeMb a multipart upload, both visible
 * only once complete, so a shard never reads half a copy and no temporary name is needed. Its
 * client, its credentials' refusals and its network failures are the destinations' (s3.ts,
 * _common.ts): the bucket of a shop's feeds and the snapshot's are spoken to alike.
 */
import { AbortMultipartUploadCommand, GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { Readable } from "node:stream";
import { SNAPSHOT_FILE } from "../core/layout.js";
import { PharmafeedError } from "../errors.js";
import type { RemoteCopy, RemoteStore } from "../snapshot/remote.js";
import { classifyNetwork } from "./_common.js";
import { AUTH_NAMES, createS3Client, keyPrefix, type S3ClientSettings } from "./s3.js";

/** The config's snapshot.s3 (config/snapshot-settings.ts): a destination's connection settings, and where the copy goes. */
export type S3StoreSettings = S3ClientSettings & {
  bucket: string;
  /** Key prefix; a trailing slash is added when missing, as for destinations. */
  prefix: string;
  partSizeMb: number;
  retries: number;
  retryDelayMs: number;
};

type SdkError = { name?: string; message?: string; code?: unknown; cause?: unknown; $metadata?: { httpStatusCode?: number } };

/** The SDK's failure in words, as a PharmafeedError naming the copy; the secrets scrubbed out. */
function failure(error: unknown, target: string, secrets: readonly string[]): PharmafeedError {
  if (error instanceof PharmafeedError) return error;
  const e = error as SdkError;
  const status = e.$metadata?.httpStatusCode;
  const scrub = (text: string) => secrets.reduce((out, secret) => (secret.length >= 4 ? out.split(secret).join("***") : out), text);
  // A HEAD's error has no body to name it: the SDK then says "Unknown"/"UnknownError", which the status says better.
  const named = e.name && e.name !== "Unknown" && e.name !== "UnknownError" ? e.name : undefined;
  const words = [named, status ? `HTTP ${status}` : undefined].filter((w) => w !== undefined).join(", ") || "Error";
  const said = scrub(`${words}${e.message && e.message !== "UnknownError" ? `: ${e.message}` : ""}`);
  const context = status ? { status } : {};
  if (AUTH_NAMES.has(e.name ?? "") || status === 401 || status === 403) return new PharmafeedError("SOURCE_AUTH", `${target}: credentials refused (${said})`, { cause: error, context });
  // The SDK names a reset connection "TimeoutError" too: the socket's own code says which it was (as for a push).
  const network = classifyNetwork(error);
  if (network === "timeout" || (!network && (e.name === "TimeoutError" || e.name === "RequestTimeout"))) return new PharmafeedError("SOURCE_TIMEOUT", `${target}: timed out (${said})`, { cause: error, context });
  if (network) return new PharmafeedError("SOURCE_NETWORK", `${target}: unreachable or connection lost (${said})`, { cause: error, context });
  return new PharmafeedError("SOURCE_HTTP", `${target}: ${said}`, { cause: error, context });
}

/** The copy's metadata as the upload wrote it; an object without it is not one of ours. */
function copyOf(target: string, bytes: number | undefined, metadata: Record<string, string> | undefined): RemoteCopy {
  const sha256 = metadata?.["sha256"];
  const generation = metadata?.["generation"];
  const syncedAt = metadata?.["synced-at"];
  if (!sha256 || !/^[0-9a-f]{64}$/.test(sha256) || !generation || !syncedAt || bytes === undefined) {
    throw new PharmafeedError("STORE_INVALID", `${target}: an object without the metadata pharmafeed's upload gives a snapshot (sha256, generation, synced-at): not used`);
  }
  return { bytes, sha256, generation, syncedAt };
}

export function s3Store(settings: S3StoreSettings): RemoteStore {
  const client = createS3Client(settings);
  const Key = `${keyPrefix(settings.prefix)}${SNAPSHOT_FILE}`;
  const Bucket = settings.bucket;
  const target = `s3://${Bucket}/${Key}${settings.endpoint ? ` at ${new URL(settings.endpoint).host}` : ""}`;
  const secrets = [settings.secretAccessKey, settings.sessionToken ?? "", settings.accessKeyId];
  const since = new Date();
  const wrap = (error: unknown) => failure(error, target, secrets);

  /** Multipart uploads of the copy that a killed upload left (stored and billed until aborted); best effort. */
  async function abortStale(): Promise<void> {
    const page = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: Key }));
    for (const upload of page.Uploads ?? []) {
      if (upload.Key !== Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= since) continue;
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: upload.UploadId }));
    }
  }

  return {
    target,
    retries: settings.retries,
    retryDelayMs: settings.retryDelayMs,
    async head() {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
        return copyOf(target, head.ContentLength, head.Metadata);
      } catch (error) {
        const e = error as SdkError;
        if (e.name === "NotFound" || e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404) return undefined;
        throw wrap(error);
      }
    },
    async put(body, copy) {
      await abortStale().catch(() => {});
      const upload = new Upload({
        client,
        queueSize: 2,
        partSize: settings.partSizeMb * 2 ** 20,
        leavePartsOnError: false,
        params: { Bucket, Key, Body: body, ContentType: "application/octet-stream", Metadata: { sha256: copy.sha256, generation: copy.generation, "synced-at": copy.syncedAt } },
      });
      try {
        await upload.done();
      } catch (error) {
        body.destroy();
        throw wrap(error);
      }
    },
    async get() {
      let response;
      try {
        response = await client.send(new GetObjectCommand({ Bucket, Key }));
      } catch (error) {
        const e = error as SdkError;
        if (e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404) throw new PharmafeedError("SOURCE_HTTP", `${target}: no snapshot there (generate --catalogue-only uploads it)`, { context: { status: 404 } });
        throw wrap(error);
      }
      const body = response.Body as Readable | undefined;
      try {
        if (!body) throw new PharmafeedError("SOURCE_HTTP", `${target}: an answer without a body`);
        return { copy: copyOf(target, response.ContentLength, response.Metadata), body };
      } catch (error) {
        // Always consume or cancel a response's body: its socket is not given back otherwise.
        body?.destroy();
        throw error;
      }
    },
    close: async () => client.destroy(),
  };
}
