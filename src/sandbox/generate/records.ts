/**
 * Records that point at products or users: users, news items (updates) and
 * corrections. They depend on the seed and on the catalogue size (they cite
 * product ids of this catalogue), and stay small whatever N is.
 */
import { between, CATALOGUE_NOW, CATALOGUE_START } from "./clock.js";
import { factId, type FactsContext } from "./facts.js";
import { Rng } from "./prng.js";
import type { Reference } from "./reference.js";
import { PERSON_FIRST, PERSON_LAST } from "./text.js";
import { HIDDEN, type CorrectionHidden, type UpdateHidden, type Wire, type WithHidden } from "./types.js";

export const RECORD_ID_BASE = { user: 7001, update: 8001, correction: 9001 } as const;
export const CORRECTION_STATUSES = ["open", "in_progress", "solved", "closed"] as const;
export const CORRECTION_TYPES = ["name", "description", "photo", "price", "ean", "other"] as const;
const TARGET_GROUPS = ["public", "pharmacist", "doctor", "webshop"] as const;

export interface Records {
  users: Wire[];
  updates: WithHidden<UpdateHidden>[];
  corrections: WithHidden<CorrectionHidden>[];
}

function meta(rng: Rng) {
  const createdAt = between(CATALOGUE_START, CATALOGUE_NOW, rng.next());
  return { createdAt, updatedAt: between(createdAt, CATALOGUE_NOW, rng.next()) };
}

export function buildRecords(seed: number, total: number, facts: FactsContext, ref: Reference): Records {
  const rng = new Rng(seed ^ 0x4ec0);
  const orgIds = ref.organizations.map((o) => o.id as number);
  const users: Wire[] = [];
  for (let k = 0; k < 60; k++) {
    users.push({
      id: RECORD_ID_BASE.user + k,
      name: `${rng.pick(PERSON_FIRST)} ${rng.pick(PERSON_LAST)}`,
      organization: rng.pick(orgIds),
      meta: meta(rng),
    });
  }
  const updates: WithHidden<UpdateHidden>[] = [];
  const types = ["product", "organization", "public_category", "brand"] as const;
  for (let k = 0; k < 120; k++) {
    const type = total === 0 && k % 4 === 0 ? "organization" : (types[k % 4] as (typeof types)[number]);
    const locales = rng.chance(0.5) ? ["fr", "nl", "en"] : ["fr", "en"];
    const targetGroups = [rng.pick(TARGET_GROUPS)];
    const u: WithHidden<UpdateHidden> = {
      id: RECORD_ID_BASE.update + k,
      type,
      organization: rng.pick(orgIds),
      title: { fr: `Nouveauté n° ${k + 1} : « gamme » & co`, en: `News #${k + 1}: "range" & co` },
      content: [{ locales, targetGroups }],
      meta: meta(rng),
      [HIDDEN]: { sortOrder: rng.int(1, 1000), targetGroups, locales },
    };
    if (type === "product") u.products = [factId(facts, rng.int(0, total - 1)), factId(facts, rng.int(0, total - 1))].filter((v, n, a) => a.indexOf(v) === n);
    if (type === "brand") u.brands = [(rng.pick(ref.brands) as Wire).id];
    if (type === "public_category") u.categories = [(rng.pick(ref.publicCategories) as Wire).id];
    updates.push(u);
  }
  const corrections: WithHidden<CorrectionHidden>[] = [];
  const count = Math.min(200, total);
  for (let k = 0; k < count; k++) {
    const user = rng.pick(users);
    corrections.push({
      id: RECORD_ID_BASE.correction + k,
      product: factId(facts, rng.int(0, total - 1)),
      locale: rng.pick(["fr", "nl", "en"]),
      type: rng.pick(CORRECTION_TYPES),
      text: rng.pick(["Le nom est incorrect", "Photo floue", "Prix à vérifier", "EAN manquant", "Beschrijving ontbreekt"]),
      status: rng.pick(CORRECTION_STATUSES),
      meta: meta(rng),
      [HIDDEN]: { organization: user.organization as number, createdBy: user.id as number },
    });
  }
  return { users, updates, corrections };
}
