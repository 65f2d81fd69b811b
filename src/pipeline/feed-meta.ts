/** A channel's feed header values (title, link, description, ...): the same for generate and preview. */
import type { LoadedChannel, LoadedConfig } from "../config/types.js";
import type { FeedMeta } from "../writers/types.js";

export function feedMeta(config: LoadedConfig, channel: LoadedChannel, generatedAt: Date): FeedMeta {
  return {
    channel: channel.name,
    title: channel.feed.title ?? config.shop.name,
    link: channel.feed.link ?? config.shop.url,
    description: channel.feed.description ?? config.shop.description,
    generatedAt: generatedAt.toISOString(),
    locale: channel.mapping.locale,
    country: channel.mapping.country,
  };
}
