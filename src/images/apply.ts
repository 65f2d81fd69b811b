/**
 * Puts the pipeline's outcomes into an item, following the channel's
 * `onError`. Pure: what the row says and which codes are counted.
 *
 *   main image failed        original: catalogue URL + IMAGE_FALLBACK    exclude: IMAGE_FAILED
 *   additional image failed  original: catalogue URL + IMAGE_FALLBACK    exclude: dropped + IMAGE_DROPPED
 */
import type { FeedItem } from "../mapping/feed-item.js";
import type { Reason, WarningCode } from "../mapping/reasons.js";
import type { ImageOutcome } from "./pipeline.js";
import type { ImageProcessSettings } from "./settings.js";

export type Applied = { ok: true; item: FeedItem; warnings: Reason<WarningCode>[] } | { ok: false; reason: Reason };

/**
 * `outcomes[i]` belongs to `item.imageSources[i]` (main image first). The
 * returned item no longer carries imageSources: writers never see them.
 */
export function applyImages(item: FeedItem, outcomes: readonly ImageOutcome[], onError: ImageProcessSettings["onError"]): Applied {
  const { imageSources: sources = [], ...rest } = item;
  const warnings: Reason<WarningCode>[] = [];
  const links: string[] = [];
  for (let i = 0; i < sources.length; i++) {
    const outcome = outcomes[i];
    const source = sources[i]!;
    if (outcome?.ok) {
      links.push(outcome.url);
      continue;
    }
    const why = outcome?.reason ?? "no outcome";
    if (onError === "original") {
      links.push(source.url);
      warnings.push({ code: "IMAGE_FALLBACK", detail: `${source.url}: ${why}` });
    } else if (i === 0) {
      return { ok: false, reason: { code: "IMAGE_FAILED", detail: `${source.url}: ${why}` } };
    } else {
      warnings.push({ code: "IMAGE_DROPPED", detail: `${source.url}: ${why}` });
    }
  }
  // Without sources (no usable photo and the channel does not require one) the item is unchanged.
  if (sources.length === 0) return { ok: true, item: rest, warnings };
  return { ok: true, item: { ...rest, imageLink: links[0] ?? "", additionalImageLinks: links.slice(1) }, warnings };
}
