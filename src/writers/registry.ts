/** Output format name -> writer factory; file extension and content type per format. */
import { createCsvWriter } from "./csv.js";
import { createJsonWriter, createNdjsonWriter } from "./json.js";
import type { LoadedLayout, OutputFormat } from "./layout.js";
import { sanitizingWriter } from "./sanitize.js";
import { createTsvWriter } from "./tsv.js";
import type { FeedMeta, FeedWriter } from "./types.js";
import { createXmlWriter } from "./xml.js";

export interface WriterDefinition {
  create(layout: LoadedLayout, meta: FeedMeta): FeedWriter;
  extension: string;
  contentType: string;
}

type Factory = (layout: LoadedLayout, meta: FeedMeta) => FeedWriter;

/** Every format's rows and header values go through sanitize.ts first: no control character reaches any feed. */
const clean = (factory: Factory): Factory => (layout, meta) => sanitizingWriter((m) => factory(layout, m), meta);

export const WRITERS: Record<OutputFormat, WriterDefinition> = {
  csv: { create: clean(createCsvWriter), extension: "csv", contentType: "text/csv; charset=utf-8" },
  tsv: { create: clean(createTsvWriter), extension: "tsv", contentType: "text/tab-separated-values; charset=utf-8" },
  xml: { create: clean(createXmlWriter), extension: "xml", contentType: "application/xml; charset=utf-8" },
  json: { create: clean(createJsonWriter), extension: "json", contentType: "application/json; charset=utf-8" },
  ndjson: { create: clean(createNdjsonWriter), extension: "ndjson", contentType: "application/x-ndjson; charset=utf-8" },
};

export function createWriter(layout: LoadedLayout, meta: FeedMeta): FeedWriter {
  return WRITERS[layout.spec.format].create(layout, meta);
}
