/**
 * S3-compatible object storage (AWS S3, Google Cloud Storage's XML API with HMAC
 * keys, Cloudflare R2, MinIO). An object is written whole: a PUT, or above
 * partSizeMb a multipart upload that becomes visible only when completed
 * (@aws-sdk/lib-storage), so no temporary name is needed. Then HEAD: its length
 * and ETag (the MD5 of a single PUT, the MD5 of the parts' MD5s for a multipart
 * one) must match the local file. A multipart upload a killed or cut push left
 * (stored and billed until aborted) is aborted before the first upload of the next
 * push: those under our prefix, for our files, started before this driver.
 */
import { createReadStream } from "node:fs";
import { AbortMultipartUploadCommand, HeadObjectCommand, ListMultipartUploadsCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { classifyNetwork, expectedEtag } from "./_common.js";
import type { S3Destination } from "./settings.js";
import { DestinationFailure, type Driver, type DriverContext, type Stored, type UploadItem } from "./types.js";

export const kind = "s3";

/** A configured prefix as a key's start: no leading slash, a trailing one unless empty. */
export function keyPrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+/, "");
  return trimmed === "" || trimmed.endsWith("/") ? trimmed : `${trimmed}/`;
}

/** The SDK's error names for refused credentials (AWS, GCS and MinIO say these). */
export const AUTH_NAMES: ReadonlySet<string> = new Set(["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "Forbidden", "InvalidToken", "ExpiredToken", "AuthorizationHeaderMalformed"]);

/** The SDK's client and HTTP handler log through this: nothing of theirs reaches stdout or stderr; their errors come back to us. */
const QUIET = { trace: () => {}, debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** What the SDK's message means, in words: its own text names the SDK's internals. */
function said(e: { name?: string; message?: string }, status: number | undefined): string {
  const message = e.message ?? "";
  // A proxy's or the server's HTML error page where S3 answers XML: the SDK's "XML parse error ... Deserialization error".
  // Or one it could read no S3 error from at all: "UnknownError".
  if (/Deserialization error|XML parse error|char '<'|Unexpected close tag|mismatched tag/i.test(message) || (e.name === "Unknown" && message === "UnknownError")) {
    return `the server answered${status ? ` HTTP ${status}` : ""} with a page that is not S3's XML (a proxy's or the server's own error page)`;
  }
  const timedOut = /exceeded the configured (\d+) ms requestTimeout/.exec(message);
  if (timedOut) return `no answer within ${timedOut[1]} ms`;
  return `${e.name ?? "Error"}${status ? ` (HTTP ${status})` : ""}: ${message}`;
}

function failure(error: unknown, target: string): DestinationFailure {
  if (error instanceof DestinationFailure) return error;
  const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const words = said(e, status);
  if (AUTH_NAMES.has(e.name ?? "") || status === 403 || status === 401) return new DestinationFailure("auth", `${target}: credentials refused: ${words}`, { cause: error });
  // The SDK names a reset connection (ECONNRESET, EPIPE) "TimeoutError" too, to retry it: the socket's own code says which it was.
  const network = classifyNetwork(error);
  if (network) return new DestinationFailure(network, `${target}: ${network === "timeout" ? "timed out" : "connection lost"}: ${words}`, { cause: error });
  if (e.name === "TimeoutError" || e.name === "RequestTimeout") return new DestinationFailure("timeout", `${target}: timed out: ${words}`, { cause: error });
  return new DestinationFailure("refused", `${target}: ${words}`, { cause: error });
}

/** What the SDK's client is built from: a destination's connection settings (and the shared snapshot's, docs/shops.md). */
export type S3ClientSettings = Pick<S3Destination, "endpoint" | "region" | "forcePathStyle" | "accessKeyId" | "secretAccessKey" | "sessionToken" | "checksums" | "timeoutMs">;

/** The one place an S3Client is built: every bucket pharmafeed writes or reads is spoken to alike. */
export function createS3Client(options: S3ClientSettings): S3Client {
  // Since v3.729 the SDK adds checksums by default; a streamed body is then sent aws-chunked, which some
  // S3-compatible servers store framing and all (s3rver: 8,832 bytes stored for 8,788). AWS itself handles it.
  const checksums = (options.checksums ?? (options.endpoint ? "when-required" : "when-supported")) === "when-required" ? "WHEN_REQUIRED" : "WHEN_SUPPORTED";
  // On Node.js 20 the SDK warns once per process in 9 lines of stderr (process.emitWarning), which are
  // not JSON in a `--log-format json` log. This is its own switch for it; README names the supported lines.
  process.env["AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED"] ??= "true";
  return new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey, ...(options.sessionToken ? { sessionToken: options.sessionToken } : {}) },
    requestChecksumCalculation: checksums,
    responseChecksumValidation: checksums,
    // Retries are the caller's (push.ts, snapshot/remote.ts), with the failure recorded; the SDK's would hide them.
    maxAttempts: 1,
    // A silent server fails the attempt (the SDK would only warn about it).
    requestHandler: { connectionTimeout: options.timeoutMs, requestTimeout: options.timeoutMs, throwOnRequestTimeout: true, logger: QUIET },
    logger: QUIET,
  });
}

export function createS3(options: S3Destination, context: DriverContext): Driver {
  const prefix = keyPrefix(options.prefix);
  const target = `s3://${options.bucket}/${prefix}${options.endpoint ? ` at ${new URL(options.endpoint).host}` : ""}`;
  const client = createS3Client(options);
  const partSize = options.partSizeMb * 2 ** 20;
  const since = new Date();
  /** The stale multipart uploads are looked for once, before the first put; a failure there leaves them to the next push. */
  let swept: Promise<void> | undefined;

  async function abortStale(names: ReadonlySet<string>): Promise<void> {
    let marker: { KeyMarker?: string; UploadIdMarker?: string } = {};
    // Bounded: a server repeating its markers must not hold the push.
    for (let pages = 0; pages < 100; pages++) {
      const page = await client.send(new ListMultipartUploadsCommand({ Bucket: options.bucket, Prefix: prefix, ...marker }));
      for (const upload of page.Uploads ?? []) {
        const name = upload.Key?.slice(prefix.length) ?? "";
        if (!upload.UploadId || !upload.Initiated || upload.Initiated >= since || !names.has(name)) continue;
        await client.send(new AbortMultipartUploadCommand({ Bucket: options.bucket, Key: upload.Key, UploadId: upload.UploadId }));
      }
      if (!page.IsTruncated) return;
      marker = { ...(page.NextKeyMarker ? { KeyMarker: page.NextKeyMarker } : {}), ...(page.NextUploadIdMarker ? { UploadIdMarker: page.NextUploadIdMarker } : {}) };
    }
  }

  async function put(item: UploadItem): Promise<Stored> {
    const Key = `${prefix}${item.name}`;
    const named = `s3://${options.bucket}/${Key}${options.endpoint ? ` at ${new URL(options.endpoint).host}` : ""}`;
    swept ??= abortStale(context.names).catch(() => {});
    await swept;
    const upload = new Upload({
      client,
      queueSize: 2,
      partSize,
      leavePartsOnError: false,
      params: {
        Bucket: options.bucket,
        Key,
        Body: createReadStream(item.local),
        ContentType: item.contentType,
        ...(item.contentEncoding ? { ContentEncoding: item.contentEncoding } : {}),
        ...(options.cacheControl ? { CacheControl: options.cacheControl } : {}),
      },
    });
    try {
      await upload.done();
      const head = await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key }));
      const bytes = head.ContentLength ?? -1;
      if (bytes !== item.bytes) throw new DestinationFailure("verify", `${named}: stored ${bytes} bytes, the local file has ${item.bytes}`);
      const etag = (head.ETag ?? "").replace(/"/g, "");
      // An ETag that is not an MD5 (SSE-KMS on AWS) says nothing about the content: the size is all we can check.
      if (!/^[0-9a-f]{32}(-\d+)?$/.test(etag) || head.ServerSideEncryption === "aws:kms") return { bytes };
      const expected = await expectedEtag(item.local, item.bytes, partSize);
      if (etag === expected.etag || etag === expected.md5) return { bytes, hash: "md5" };
      // A multipart object's ETag is not always S3's MD5 of MD5s (GCS, R2 differ): only a single PUT's MD5 is certain.
      if (item.bytes > partSize && !/-\d+$/.test(etag)) return { bytes };
      throw new DestinationFailure("verify", `${named}: stored ETag ${etag}, the local file's is ${expected.etag}`);
    } catch (error) {
      throw failure(error, named);
    }
  }

  return {
    target,
    put,
    close: async () => client.destroy(),
  };
}
