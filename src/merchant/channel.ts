/** A channel file's `merchant` section as a run uses it (config/load.ts calls this once per channel). */
import { dirname, resolve } from "node:path";
import type { ChannelMapping } from "../mapping/settings.js";
import type { MerchantChannel, MerchantSettings } from "./settings.js";

export function merchantChannel(configFile: string, channel: string, settings: MerchantSettings, mapping: ChannelMapping): MerchantChannel {
  return {
    channel,
    settings,
    // Relative to the channel file, as every path of a config file; "" when the variable is unset.
    keyFile: settings.credentials === "" ? "" : resolve(dirname(configFile), settings.credentials),
    feedLabel: settings.feedLabel ?? mapping.country,
    contentLanguage: settings.contentLanguage ?? mapping.locale.split(/[-_]/)[0]!,
  };
}
