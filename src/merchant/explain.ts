/**
 * Google's verdict in `pharmafeed explain`: per feed with a Merchant Center account, what
 * the last read-back found for the product, per country, and each issue in Google's
 * words. Kept apart from pharmafeed's own outcome (in the feed, left out): the two are
 * different judges and are always named as such.
 */
import type { ChannelAnswer, ExplainAnswer } from "../explain/explain.js";
import { catalogueIdsOf, idOfRow, renderedId } from "./offer-id.js";
import { MerchantStore } from "./store.js";
import { contextWords, type CountryVerdict, type ProductState } from "./verdict.js";

export interface GoogleAnswer {
  accountId: string;
  /** The offer id Google knows the product by, when the channel's id template made it differ from the catalogue id. */
  offerId?: string;
  /** When Google's statuses were read. */
  syncedAt: string;
  /** "unknown": the account has no such product (not fetched yet, or left out of the feed). */
  state: ProductState | "unknown";
  countries: CountryVerdict[];
  issues: { severity: string; code: string; attribute?: string; description?: string; detail?: string; documentation?: string; countries: string[]; contexts?: string[] }[];
  /** The last read-back failed: these are the statuses of the one before. */
  staleBecause?: string;
}

/** A channel's settings as explain has them: the id template makes the offer id. */
export interface ChannelIds {
  name: string;
  mapping: { id: { template: string } };
}

/** The catalogue id behind a feed id of a Google channel (one with a `merchant` section), when the index has it. */
export function catalogueIdFor(query: string, channels: readonly (ChannelIds & { merchant?: unknown })[], known: (id: string) => boolean): string | undefined {
  const templates = channels.filter((c) => c.merchant !== undefined).map((c) => c.mapping.id.template);
  return catalogueIdsOf(query.trim(), templates).find(known);
}

/** The offer id of the product in the channel (offer-id.ts): the item written, else the template's rendering, else the catalogue id. */
function offerIdOf(outputDir: string, channel: ChannelAnswer, catalogueId: string, template: string | undefined): string {
  const written = channel.row === undefined ? undefined : idOfRow(channel.row, outputDir, channel.file);
  return written ?? (template === undefined ? undefined : renderedId(template, catalogueId)) ?? catalogueId;
}

/** Adds `google` to every channel of the answer that has a Merchant Center account read back. */
export function attachGoogle(outputDir: string, answer: ExplainAnswer, channels: readonly ChannelIds[] = []): void {
  if (answer.products.length === 0) return;
  let store: MerchantStore | undefined;
  try {
    store = MerchantStore.open(outputDir);
  } catch {
    // A store of another version (or a damaged one): explain still answers with pharmafeed's own outcome.
    return;
  }
  if (!store) return;
  try {
    const feeds = new Map(store.feeds().map((f) => [f.channel, f]));
    const templates = new Map(channels.map((c) => [c.name, c.mapping.id.template]));
    for (const product of answer.products) {
      for (const channel of product.channels) {
        const feed = feeds.get(channel.channel);
        if (!feed) continue;
        const offerId = offerIdOf(outputDir, channel, product.id, templates.get(channel.channel));
        const v = store.verdicts(offerId).find((x) => x.channel === channel.channel);
        channel.google = {
          accountId: feed.accountId,
          ...(offerId !== product.id ? { offerId } : {}),
          syncedAt: feed.syncedAt,
          state: v?.state ?? "unknown",
          countries: v?.countries ?? [],
          issues: (v?.issues ?? []).map((i) => ({
            severity: i.severity,
            code: i.code,
            ...(i.attribute ? { attribute: i.attribute } : {}),
            ...(i.description ? { description: i.description } : {}),
            ...(i.detail ? { detail: i.detail } : {}),
            ...(i.documentation ? { documentation: i.documentation } : {}),
            countries: i.applicableCountries,
            contexts: i.contexts,
          })),
          ...(feed.error ? { staleBecause: feed.error } : {}),
        };
      }
    }
  } finally {
    store.close();
  }
}

function country(c: CountryVerdict): string {
  const contexts = Object.entries(c.contexts);
  const mixed = new Set(contexts.map(([, s]) => s)).size > 1;
  return `${c.country} ${c.status.toUpperCase()}${mixed ? ` (${contexts.map(([ctx, s]) => `${contextWords(ctx)}: ${s}`).join(", ")})` : ""}`;
}

/** The lines explain prints under a channel, indented like its reasons. */
export function googleLines(google: GoogleAnswer | undefined): string[] {
  if (!google) return [];
  const head = `  Google's verdict${google.offerId === undefined ? "" : ` on offer id ${google.offerId}`} (Merchant Center ${google.accountId}, read ${google.syncedAt}${google.staleBecause ? `; the last read-back failed: ${google.staleBecause}` : ""}):`;
  if (google.state === "unknown") return [head, "    not in Merchant Center (Google has not fetched it yet, or the feed does not carry it)"];
  const lines = [head, `    ${google.countries.length > 0 ? google.countries.map(country).join("; ") : "no destination status yet"}`];
  for (const i of google.issues) {
    const where = `${i.countries.length > 0 ? ` [${i.countries.join(" ")}]` : ""}${(i.contexts?.length ?? 0) > 1 ? ` (${i.contexts!.map(contextWords).join(", ")})` : ""}`;
    lines.push(`    ${i.severity.toLowerCase()} ${i.code}${i.attribute ? ` (${i.attribute})` : ""}${where}: ${i.description ?? ""}${i.detail && i.detail !== i.description ? ` - ${i.detail}` : ""}`);
    if (i.documentation) lines.push(`      ${i.documentation}`);
  }
  return lines;
}
