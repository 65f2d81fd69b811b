/**
 * What the manifest keeps per channel and destination: the last push (when, how
 * many bytes went, ok or why not) and the files the destination is known to
 * hold, with their digests. A file whose digest is listed is not uploaded again;
 * a file whose upload failed is dropped from the list (the remote holds the old
 * complete one or the new one, we cannot tell which), so the next push sends it.
 */
import { z } from "zod";

export const UploadedFile = z.object({
  name: z.string(),
  bytes: z.number().int().min(0),
  sha256: z.string(),
  /** When it was uploaded and verified. */
  at: z.string(),
});
export type UploadedFile = z.infer<typeof UploadedFile>;

export const DestinationRecord = z.object({
  name: z.string(),
  kind: z.enum(["s3", "sftp", "ftp"]),
  /** Where, without credentials: "s3://bucket/feeds/ at storage.googleapis.com". */
  target: z.string(),
  /** When the last push to it ended. */
  at: z.string(),
  ok: z.boolean(),
  /** Why not, when ok is false: a stable code (auth, timeout, network, refused, verify, local, interrupted) and words. */
  code: z.string().optional(),
  reason: z.string().optional(),
  /** Bytes the last push uploaded (0: nothing had changed). */
  uploadedBytes: z.number().int().min(0),
  /** Files the last push uploaded, and those it left alone as unchanged. */
  uploaded: z.number().int().min(0),
  unchanged: z.number().int().min(0),
  files: z.array(UploadedFile),
});
export type DestinationRecord = z.infer<typeof DestinationRecord>;

/** One line per destination for the CLI summary and the status page: "gcs (s3://...): ok, 2 files, 1.2 MB at ...". */
export function recordLine(record: DestinationRecord): string {
  const what = record.ok
    ? record.uploaded === 0
      ? "ok, unchanged"
      : `ok, ${record.uploaded} file${record.uploaded === 1 ? "" : "s"} uploaded (${record.uploadedBytes} bytes)`
    : `FAILED (${record.code ?? "error"}): ${record.reason ?? ""}`;
  return `${record.name} → ${record.target}: ${what}, ${record.at}`;
}

/** The summary's lines: one per channel and destination of the manifest ("uploads: google: gcs → ...: ok, unchanged"). */
export function destinationLines(channels: readonly { name: string; destinations?: DestinationRecord[] | undefined }[]): string[] {
  return channels.flatMap((c) => (c.destinations ?? []).map((r) => `upload: ${c.name}: ${recordLine(r)}`));
}

/** /healthz and /monitor: each channel's destinations and their last push, without the file list. */
export function destinationsView(channels: readonly { name: string; destinations?: DestinationRecord[] | undefined }[]): Record<string, unknown>[] {
  return channels.flatMap((c) =>
    (c.destinations ?? []).map(({ files: _, ...r }) => ({ channel: c.name, ...r })),
  );
}
