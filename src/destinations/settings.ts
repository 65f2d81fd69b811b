/**
 * Where a channel's published files are pushed after the local publish: an
 * S3-compatible bucket, an SFTP or an FTP(S) account. One schema per kind,
 * strict like every config; credentials are environment references
 * ("${FEED_S3_SECRET}") resolved by the config loader and never written back.
 */
import { z } from "zod";

const common = {
  /** Unique within a channel; names the destination in the manifest, logs and alerts. */
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case letters, digits and dashes"),
  /** Further attempts after a failed upload, with doubling delays. */
  retries: z.number().int().min(0).max(10).default(3),
  /** Delay before the first retry, doubled each time. */
  retryDelayMs: z.number().int().min(0).max(600_000).default(2000),
  /** A connection, a request or a silence longer than this fails the attempt. */
  timeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
  /** Upload to a temporary name beside the target and rename it into place (false: write the target directly). */
  atomic: z.boolean().default(true),
};

export const S3Destination = z
  .object({
    kind: z.literal("s3"),
    ...common,
    /** Any S3-compatible service: https://storage.googleapis.com (GCS, HMAC keys), https://<account>.r2.cloudflarestorage.com, MinIO. Omit for AWS. */
    endpoint: z.url().optional(),
    region: z.string().min(1).default("us-east-1"),
    bucket: z.string().min(1),
    /** Key prefix, e.g. "feeds/" (a trailing slash is added when missing). */
    prefix: z.string().default(""),
    /** https://endpoint/bucket/key instead of https://bucket.endpoint/key (MinIO, most self-hosted servers). */
    forcePathStyle: z.boolean().default(false),
    /** "${VAR}" references. */
    accessKeyId: z.string(),
    secretAccessKey: z.string(),
    sessionToken: z.string().optional(),
    /** Cache-Control of the uploaded objects (a CDN in front of the bucket reads it). */
    cacheControl: z.string().optional(),
    /**
     * Request checksums of the AWS SDK: when-supported (AWS itself) or when-required. Default:
     * when-required with a custom endpoint, since some S3-compatible servers store the checksum's
     * chunk framing inside the object (README, Destinations).
     */
    checksums: z.enum(["when-supported", "when-required"]).optional(),
    /** Files larger than this go up in parts of this size (lib-storage's multipart upload). */
    partSizeMb: z.number().int().min(5).max(5000).default(8),
  })
  .strict();

export const SftpDestination = z
  .object({
    kind: z.literal("sftp"),
    ...common,
    host: z.string().min(1),
    /** Google's partnerupload.google.com listens on 19321. */
    port: z.number().int().min(1).max(65535).default(22),
    user: z.string().min(1),
    /** A password, or a private key (its text, through a reference), or both. */
    password: z.string().optional(),
    privateKey: z.string().optional(),
    passphrase: z.string().optional(),
    /** The server's host key as "SHA256:<base64>" (ssh-keygen -lf); when set, any other key is refused. */
    hostKey: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}=?$/, "SHA256:<base64> as ssh-keygen -l prints it").optional(),
    /** Remote directory, relative to the login directory unless it starts with /. */
    dir: z.string().default("."),
    /** Permissions of the uploaded files, in octal ("0644": readable by all, writable by the login's user only). */
    mode: z.string().regex(/^0?[0-7]{3}$/, "an octal mode such as \"0644\"").default("0644"),
  })
  .strict()
  .refine((d) => d.password !== undefined || d.privateKey !== undefined, { message: "a password or a privateKey is needed", path: ["password"] });

export const FtpDestination = z
  .object({
    kind: z.literal("ftp"),
    ...common,
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).default(21),
    user: z.string().min(1),
    password: z.string(),
    /** Explicit FTPS (AUTH TLS on the control connection, TLS on the data connections). */
    secure: z.boolean().default(false),
    /** Accept a certificate no authority signed (a self-signed server); only with secure. */
    allowSelfSigned: z.boolean().default(false),
    dir: z.string().default("."),
  })
  .strict();

export const DestinationConfig = z.discriminatedUnion("kind", [S3Destination, SftpDestination, FtpDestination]);
export type DestinationConfig = z.infer<typeof DestinationConfig>;
export type S3Destination = z.infer<typeof S3Destination>;
export type SftpDestination = z.infer<typeof SftpDestination>;
export type FtpDestination = z.infer<typeof FtpDestination>;

/** A channel's list (or the main file's default list); names unique. */
export const Destinations = z.array(DestinationConfig).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((d, i) => {
    if (seen.has(d.name)) ctx.addIssue({ code: "custom", message: `destination name "${d.name}" is used twice`, path: [i, "name"] });
    seen.add(d.name);
  });
});

/** Fields holding secrets: tolerated unset by validate --no-credentials. */
export const SECRET_FIELDS = ["accessKeyId", "secretAccessKey", "sessionToken", "password", "privateKey", "passphrase"] as const;

/**
 * Secrets written into a config file as they are (not "${VAR}"): the JSON paths
 * (destinations[0].password) in a file's own text, before its references are resolved.
 * Credentials come only from the environment; a config file is copied, committed, mailed.
 */
export function plainSecretPaths(json: unknown): string[] {
  const list = (json as { destinations?: unknown } | null)?.destinations;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry, i) => {
    if (entry === null || typeof entry !== "object") return [];
    return SECRET_FIELDS.filter((field) => {
      const value = (entry as Record<string, unknown>)[field];
      return typeof value === "string" && value !== "" && !/\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}/.test(value);
    }).map((field) => `destinations[${i}].${field}`);
  });
}
