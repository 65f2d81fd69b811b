/**
 * `pharmafeed preview`: a channel's items rendered from the catalogue, to the
 * terminal, with nothing written: no lock, no file, no manifest. The same
 * mapping and writers as `generate` (ChannelMapper), on the first N products
 * the source filter streams, or on the products named with --id (whatever their
 * status: the point is to see what the channel does with them).
 *
 * Images are shown as the catalogue's URLs: preview never downloads or converts.
 */
import { createCatalogueClient } from "../catalogue/client.js";
import type { Product } from "../catalogue/schemas/product.js";
import type { LoadedConfig } from "../config/types.js";
import { PharmafeedError } from "../errors.js";
import { mapProduct } from "../mapping/map-product.js";
import { reasonDetail } from "../mapping/reason-details.js";
import { ChannelMapper } from "../pipeline/channel-mapper.js";
import { feedMeta } from "../pipeline/feed-meta.js";
import { loadContext } from "../pipeline/load-context.js";
import { loadOffers } from "../pipeline/offers-file.js";
import { leftOutText, type PreviewLine, renderTable } from "./table.js";

export interface PreviewOptions {
  config: LoadedConfig;
  channel: string;
  /** Items to show when no ids are given (default 10). */
  limit?: number;
  ids?: readonly string[];
  format: "table" | "raw";
  /** Width of the table (the terminal's). */
  width?: number;
  /**
   * Raw format with ids: the products left out, with their reasons in words, as the table lists
   * them (the command writes them to stderr: stdout stays the feed). A review found them gone.
   */
  leftOut?: (text: string) => void;
  now?: Date;
}

/** The products to preview: the named ones (one request per 1,000 ids), or the stream cut after `limit` items. */
async function* products(config: LoadedConfig, client: ReturnType<typeof createCatalogueClient>, ids: readonly string[]): AsyncGenerator<Product> {
  if (ids.length > 0) {
    for await (const page of client.queryAll("products", { filter: { id: [...ids] } as never, sorting: { id: "ASC" }, pageSize: 100 })) yield* page.results;
    return;
  }
  yield* client.streamProducts({ filter: config.query.filter as never, sorting: config.query.sorting as never });
}

export async function renderPreview(options: PreviewOptions): Promise<string> {
  const { config } = options;
  const channel = config.channels.find((c) => c.name === options.channel);
  if (!channel) throw new PharmafeedError("USAGE", `no channel named "${options.channel}"; known: ${config.channelNames.join(", ")}`);
  if (!config.source) throw new PharmafeedError("CONFIG_INVALID", "no catalogue source credentials were resolved");
  const now = options.now ?? new Date();
  const client = createCatalogueClient(config.source);
  try {
    // The offers file's prices and stock, as generate uses them (preview publishes nothing,
    // so a file that generate would refuse is still read; validate says why).
    const offers = config.offers ? await loadOffers(config.offers, undefined) : undefined;
    const { context } = await loadContext(client, config, now, offers?.parsed.offers);
    const mapper = new ChannelMapper({ name: channel.name, mapping: channel.mapping, layout: channel.layout, format: channel.format, meta: feedMeta(config, channel, now) });
    const ids = options.ids ?? [];
    const limit = options.limit ?? 10;
    const rows: string[] = [];
    const lines: PreviewLine[] = [];
    const seen = new Set<string>();
    let leftOut = 0;
    for await (const product of products(config, client, ids)) {
      seen.add(product.id);
      const result = mapProduct(product, mapper.compiled, context);
      if (result.ok) {
        rows.push(mapper.writer.row(result.item));
        lines.push({ id: product.id, item: result.item });
      } else {
        leftOut++;
        if (ids.length > 0) lines.push({ id: product.id, reasons: result.reasons.map((r) => ({ code: r.code, detail: reasonDetail(r, channel.mapping) })) });
      }
      if (ids.length === 0 && rows.length >= limit) break;
    }
    for (const id of ids) if (!seen.has(id)) lines.push({ id, reasons: [{ code: "NOT_FOUND", detail: "not in the catalogue" }] });
    if (options.format === "raw") {
      const left = lines.filter((l) => "reasons" in l);
      if (left.length > 0) options.leftOut?.(leftOutText(left));
      const { writer } = mapper;
      return writer.header() + rows.join(writer.separator) + writer.footer(rows.length);
    }
    const note = ids.length === 0 && leftOut > 0 ? `\n${leftOut} product${leftOut === 1 ? "" : "s"} left out on the way (pharmafeed explain <id> says why)\n` : "";
    return renderTable(lines, options.width ?? 120) + note;
  } finally {
    await client.close();
  }
}
