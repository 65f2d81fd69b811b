/**
 * A supplemental data source changes nothing Google shows until it is in the default
 * rule (`takeFromDataSources`) of the primary data source that holds the products
 * (Merchant API reference, PrimaryProductDataSource.DefaultRule). Checked on every push:
 * a primary source of the feed's label and language that does not list it gets it at
 * the head of its list, before `self`, so that the intraday price wins over the nightly
 * file's ("[1001, self] will take attribute values from supplemental data source 1001,
 * and fallback to self"). What cannot be linked comes back in words, with how to do it.
 */
import { isPharmafeedError } from "../../errors.js";
import type { Logger } from "../../log.js";
import type { MerchantClient } from "../client.js";
import { oneLine } from "../http.js";
import type { DataSource } from "../schemas.js";
import type { MerchantChannel } from "../settings.js";

/** A primary source takes the feed's products when its label and language match, or when it sets neither. */
function takes(source: DataSource, m: MerchantChannel): boolean {
  const p = source.primaryProductDataSource;
  if (!p) return false;
  const label = p.feedLabel ?? "";
  const language = p.contentLanguage ?? "";
  return (label === "" || label.toUpperCase() === m.feedLabel.toUpperCase()) && (language === "" || language.toLowerCase() === m.contentLanguage.toLowerCase());
}

const lists = (source: DataSource | undefined, supplemental: string): boolean =>
  (source?.primaryProductDataSource?.defaultRule?.takeFromDataSources ?? []).some((r) => r.supplementalDataSourceName === supplemental);

/** Links `supplemental` where it is missing; undefined when every primary source of the feed lists it, else why not. */
export async function ensureLinked(client: MerchantClient, sources: readonly DataSource[], m: MerchantChannel, supplemental: string, logger: Logger): Promise<string | undefined> {
  const primaries = sources.filter((s) => takes(s, m));
  const how = `add it in Merchant Center (Products > Data sources > the primary source > Attribute rules > the default rule) or with dataSources.patch (updateMask primaryProductDataSource.defaultRule)`;
  if (primaries.length === 0) {
    return `no primary data source of account ${m.settings.accountId} takes products of feed label ${m.feedLabel} and language ${m.contentLanguage}: the pushed prices and stock change nothing Google shows`;
  }
  const missing: string[] = [];
  for (const primary of primaries) {
    if (lists(primary, supplemental)) continue;
    const before = primary.primaryProductDataSource?.defaultRule?.takeFromDataSources ?? [];
    const next = [{ supplementalDataSourceName: supplemental }, ...(before.length > 0 ? before : [{ self: true }])];
    try {
      const updated = await client.setDefaultRule(primary.name, next);
      if (!lists(updated, supplemental)) missing.push(`${primary.name} (Google did not keep it)`);
      else logger.info("merchant: supplemental data source linked to the primary one's default rule", { channel: m.channel, primary: primary.name, supplemental });
    } catch (error) {
      // A run stopped (SIGTERM, the deadline) stops here too; a refusal is reported.
      if (!isPharmafeedError(error)) throw error;
      missing.push(`${primary.name} (${oneLine(error.message, 160)})`);
    }
  }
  return missing.length === 0 ? undefined : `the supplemental data source ${supplemental} is not in the default rule of ${missing.join(", ")}: Google ignores the pushed prices and stock until it is; ${how}`;
}
