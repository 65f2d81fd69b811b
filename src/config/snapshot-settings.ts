/**
 * The main file's `snapshot` section (docs/shops.md, "Beyond one machine"): where the shared
 * snapshot is kept for shards on machines that share no disk, an S3-compatible bucket. Its
 * connection settings are a destination's (destinations/settings.ts), so that AWS, GCS, R2 and
 * MinIO are configured alike in both places; credentials are "${VAR}" references, as there.
 */
import { z } from "zod";
import { plainSecretPaths, S3Destination } from "../destinations/settings.js";

/** A destination's S3 settings, without what only a feed's upload has (its name, a temporary name, Cache-Control). */
export const SnapshotS3 = S3Destination.omit({ kind: true, name: true, atomic: true, cacheControl: true });
export type SnapshotS3 = z.infer<typeof SnapshotS3>;

export const SnapshotSettings = z
  .object({
    /** `generate --catalogue-only` uploads the snapshot to `<prefix>snapshot.pfs`; the shards download it. */
    s3: SnapshotS3,
  })
  .strict();
export type SnapshotSettings = z.infer<typeof SnapshotSettings>;

/** Its credentials, tolerated unset where the command does not use them (validate --no-credentials, serve, explain ...). */
export const SNAPSHOT_SECRET_PATH = /^snapshot\.s3\.(accessKeyId|secretAccessKey|sessionToken)$/;

/**
 * Secrets of `snapshot.s3` written into a file as they are (not "${VAR}"): their JSON paths. The
 * rule is the destinations' own (one rule for every credential of the file), applied to this entry.
 */
export function plainSnapshotSecretPaths(json: unknown): string[] {
  const snapshot = (json as { snapshot?: unknown } | null)?.snapshot;
  const s3 = (snapshot as { s3?: unknown } | null | undefined)?.s3;
  if (s3 === null || typeof s3 !== "object") return [];
  return plainSecretPaths({ destinations: [s3] }).map((path) => path.replace(/^destinations\[0\]/, "snapshot.s3"));
}
