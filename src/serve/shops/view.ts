/**
 * What a server of many shops says of each shop, from the shop's own health (health.ts, as its
 * /<shop>/healthz) and whether its config loaded: the lines of the overview page, the per-shop
 * entries of /healthz and /monitor, and which shops need someone (first).
 */
import type { Health } from "../health.js";

export interface ShopView {
  /** The shop's key (its path, its folder). */
  id: string;
  /** shop.name of its config; the key when its config was refused. */
  name: string;
  /** The first line of why its config was refused when serve started: nothing of it is served but images. */
  refused?: string;
  /** The first line of why its config was refused when read again after a run (the rules known before are kept). */
  reloadRefused?: string;
  health: Health;
}

export type Severity = "bad" | "warn";

export interface Attention {
  severity: Severity;
  text: string;
}

/** What needs someone, worst first; empty: nothing. */
export function attentionOf(view: ShopView): Attention[] {
  const out: Attention[] = [];
  if (view.refused !== undefined) out.push({ severity: "bad", text: `config refused: ${view.refused}` });
  if (view.reloadRefused !== undefined) out.push({ severity: "warn", text: `config refused when read again after a run (serving with the access rules known before): ${view.reloadRefused}` });
  const { manifest, state, feedsServed } = view.health;
  if (!manifest) {
    out.push({ severity: "warn", text: "no run yet" });
    return out;
  }
  if (manifest.error) out.push({ severity: "bad", text: `last run failed: ${manifest.error.code}: ${firstLine(manifest.error.message)}` });
  if (state.status === "stale") {
    const age = state.newestFeedAgeHours === undefined ? "no feed online" : `the newest feed is ${state.newestFeedAgeHours.toFixed(1)} h old (more than ${state.maxFeedAgeHours} h)`;
    out.push({ severity: "bad", text: `stale feeds: ${age}` });
  }
  if (!manifest.error) {
    for (const u of state.unpublished) {
      const what = u.kind === "gate" ? "held by its gate" : u.kind === "failed" ? "failed" : "not published";
      out.push({ severity: u.kind === "failed" ? "bad" : "warn", text: `${u.channel}: ${what} (${firstLine(u.reason)})` });
    }
  }
  if (manifest.offersRefused) out.push({ severity: "warn", text: "offers file refused: the feeds keep the offers online before it" });
  for (const p of state.problems) out.push({ severity: "warn", text: `${p.channel ? `${p.channel}: ` : ""}${firstLine(p.reason)}` });
  if (feedsServed === 0 && view.refused === undefined && state.status !== "stale") out.push({ severity: "bad", text: "no feed is served" });
  return out;
}

/** How badly a shop needs someone: the overview leads with the highest. */
function rank(view: ShopView, attention: readonly Attention[]): number {
  if (view.refused !== undefined) return 5;
  if (view.health.manifest?.status === "failed") return 4;
  if (view.health.state.status === "stale") return 3;
  if (attention.some((a) => a.severity === "bad")) return 3;
  return attention.length > 0 ? 2 : 0;
}

/** The shops with what needs each, those that need someone first (worst first), then in the config's order. */
export function byNeed(views: readonly ShopView[]): { view: ShopView; attention: Attention[] }[] {
  const lines = views.map((view, order) => {
    const attention = attentionOf(view);
    return { view, attention, order, rank: rank(view, attention) };
  });
  lines.sort((a, b) => b.rank - a.rank || a.order - b.order);
  return lines.map(({ view, attention }) => ({ view, attention }));
}

/** One shop in the many-shop /healthz and /monitor: its own /healthz's status, or `refused`. */
export function healthLine(view: ShopView): Record<string, unknown> {
  const body = view.health.body;
  const pick = (key: string) => (body[key] === undefined ? {} : { [key]: body[key] });
  return {
    shop: view.id,
    status: view.refused !== undefined ? "refused" : body["status"],
    // The monitor's rule of one shop (routes.ts monitor): anything but ok.
    alert: view.refused !== undefined || view.health.state.alert,
    ...pick("run"),
    ...pick("lastRunEndedAt"),
    feedsServed: view.health.feedsServed,
    ...pick("newestFeedAgeHours"),
    // The refusal's text names files: it is on the overview (behind the operator's password) and in the log.
    ...(view.refused !== undefined ? { config: "refused" } : view.reloadRefused !== undefined ? { config: "refused-on-reload" } : {}),
    summary: view.refused !== undefined ? "The shop's config was refused: its feeds are not served (see serve's log or the overview)." : body["summary"],
  };
}

const WORST = ["ok", "degraded", "stale", "no-manifest", "refused"];

/** /healthz of many: 200 while any shop serves a feed (one shop's trouble must not take every shop out of a load balancer). */
export function healthAll(views: readonly ShopView[]): { status: number; body: Record<string, unknown> } {
  const shops = views.map(healthLine);
  const served = views.reduce((n, v) => n + v.health.feedsServed, 0);
  const worst = shops.reduce((w, s) => Math.max(w, WORST.indexOf(String(s["status"]))), 0);
  const attention = shops.filter((s) => s["alert"] === true).map((s) => s["shop"]);
  return { status: served > 0 ? 200 : 503, body: { status: WORST[worst] ?? "degraded", feedsServed: served, ...(attention.length > 0 ? { attention } : {}), shops } };
}

/** /monitor of many: 503 when any shop's own /monitor would be (or its config was refused); `alerts` says which and why. */
export function monitorAll(views: readonly ShopView[]): { status: number; body: Record<string, unknown> } {
  const { body } = healthAll(views);
  const shops = body["shops"] as Record<string, unknown>[];
  const alerts = shops.filter((s) => s["alert"] === true).map((s) => ({ shop: s["shop"], status: s["status"], summary: s["summary"] }));
  return { status: alerts.length > 0 ? 503 : 200, body: { status: body["status"], alerts, shops } };
}

/**
 * The first line of an error. One that only announces a list ("configuration refused (3
 * problems):") gives the list's first entry instead, and how many more there are.
 */
export function firstLine(text: string): string {
  const [first = "", second] = text.split("\n", 2);
  if (!first.endsWith(":") || second === undefined) return first;
  const more = Number(/\((\d+) problems?\)/.exec(first)?.[1] ?? 1) - 1;
  return `${second.trim()}${more > 0 ? ` (and ${more} more)` : ""}`;
}
