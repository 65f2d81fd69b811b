/** dataSources.list / create / patch of the fake (datasources_v1). */
import type { DataSourceReference } from "../schemas.js";
import { googleError, ok, type Reply } from "./reply.js";
import type { FakeAccount, FakeDataSource } from "./state.js";

function json(d: FakeDataSource): Record<string, unknown> {
  const primary = {
    ...(d.feedLabel ? { feedLabel: d.feedLabel } : {}),
    ...(d.contentLanguage ? { contentLanguage: d.contentLanguage } : {}),
    defaultRule: { takeFromDataSources: d.defaultRule ?? [{ self: true }] },
  };
  return { name: d.name, dataSourceId: d.dataSourceId, displayName: d.displayName, input: d.input, ...(d.supplemental ? { supplementalProductDataSource: {} } : { primaryProductDataSource: primary }) };
}

export function listDataSources(account: FakeAccount): Reply {
  return ok({ dataSources: account.dataSources.map(json) });
}

export function createDataSource(account: FakeAccount, body: unknown): Reply {
  const wanted = body as { displayName?: string; supplementalProductDataSource?: unknown } | undefined;
  if (!wanted?.displayName || wanted.supplementalProductDataSource === undefined) return googleError(400, "displayName and a data source type are required.");
  const id = String(1000 + account.dataSources.length);
  const created: FakeDataSource = { name: `accounts/${account.id}/dataSources/${id}`, dataSourceId: id, displayName: wanted.displayName, input: "API", supplemental: true };
  account.dataSources.push(created);
  return ok(json(created));
}

/** Only what pharmafeed changes: a primary source's default rule, with the update mask Google's sample uses. */
export function patchDataSource(account: FakeAccount, id: string, query: URLSearchParams, body: unknown): Reply {
  const source = account.dataSources.find((d) => d.dataSourceId === id);
  if (!source) return googleError(404, "Requested entity was not found.");
  const mask = (query.get("updateMask") ?? "").split(",").map((m) => m.trim().replace(/_(\w)/g, (_, c: string) => c.toUpperCase()));
  if (!mask.includes("primaryProductDataSource.defaultRule")) return googleError(400, "updateMask is required and must name the fields to update.");
  if (source.supplemental) return googleError(400, "Only primary product data sources have a default rule.");
  const refs = (body as { primaryProductDataSource?: { defaultRule?: { takeFromDataSources?: DataSourceReference[] } } } | undefined)?.primaryProductDataSource?.defaultRule?.takeFromDataSources;
  if (!Array.isArray(refs) || refs.length === 0) return googleError(400, "defaultRule.takeFromDataSources must not be empty.");
  for (const ref of refs) {
    if (ref.self === true) continue;
    const linked = account.dataSources.find((d) => d.name === ref.supplementalDataSourceName);
    if (!linked?.supplemental) return googleError(400, `Data source ${String(ref.supplementalDataSourceName)} is not a supplemental data source of account ${account.id}.`);
  }
  source.defaultRule = refs.map((r) => (r.self === true ? { self: true } : { supplementalDataSourceName: r.supplementalDataSourceName! }));
  return ok(json(source));
}
