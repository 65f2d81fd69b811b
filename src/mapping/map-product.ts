/**
 * One catalogue product to one channel's FeedItem, or the reasons it is left out.
 *
 *   product ──> facts (once per run: GTINs, flags, category, VAT, offer)
 *      │
 *      ├─ the offers row: refused or an implausible price -> out, or the catalogue's (offer-check.ts)
 *      ├─ eligibility (status, deleted, dates, prescription, medicine, offer policy)
 *      │     └─ any reason: stop here
 *      ├─ brand, name, seoName ── locale chain (fallbacks recorded)
 *      ├─ description ── type preference x locale chain, HTML -> text, cut
 *      ├─ GTIN ── output width, identifier_exists per Google's rule
 *      ├─ price ── sources in order, VAT, rounding, sale from the offer
 *      ├─ categories ── path in the locale, nearest mapped Google id
 *      ├─ title, link, id, custom ── compiled templates
 *      ├─ photos ── locale, target group, type, rendition
 *      └─ include/exclude rules ── over everything above
 *
 * Pure and total: bad data becomes reasons, never an exception (an unexpected
 * shape is caught and reported as MAPPING_ERROR).
 */
import type { Product } from "../catalogue/schemas/product.js";
import { categoryPath, googleCategory } from "./categories.js";
import { compiledFor, type CompiledChannel } from "./compile.js";
import type { MappingContext } from "./context.js";
import { eligibility } from "./eligibility.js";
import type { FeedItem } from "./feed-item.js";
import { productFacts } from "./facts.js";
import { startState } from "./fields.js";
import { channelIdentifiers } from "./identifiers.js";
import { leafletUrl } from "./leaflet.js";
import { localesWithText, resolveAnyLocale, resolveLocalized } from "./locale.js";
import { formatMoney } from "./money.js";
import { activeSale, selectPrice } from "./price.js";
import type { Reason, WarningCode } from "./reasons.js";
import type { ChannelMapping } from "./settings.js";
import { sharedDescription, sharedDescriptionLocales, sharedImages } from "./locale-cache.js";
import { finishTitle } from "./text.js";
import { nameToText } from "./title-text.js";
import { withoutTracking } from "./tracking.js";
import { itemUnitPricing } from "./unit-pricing.js";
import { isHttpUrl } from "./url.js";
import { feedUrl } from "./feed-url.js";
import { availabilityDate } from "./availability.js";
import { offerRefusal, withoutOffer } from "./offer-check.js";

export type MapResult =
  | { ok: true; item: FeedItem; fallbacks: Record<string, string>; warnings: Reason<WarningCode>[] }
  | { ok: false; reasons: Reason[] };

export function mapProduct(product: Product, channel: CompiledChannel | ChannelMapping, context: MappingContext): MapResult {
  try {
    return map(product, compiledFor(channel), context);
  } catch (error) {
    return { ok: false, reasons: [{ code: "MAPPING_ERROR", detail: error instanceof Error ? error.message : String(error) }] };
  }
}

/** MISSING_LANGUAGE when `field` has text in other languages only; undefined when it has none at all. */
function inOtherLanguages(field: string, locales: readonly string[]): Reason | undefined {
  return locales.length === 0 ? undefined : { code: "MISSING_LANGUAGE", detail: `${field}: only ${locales.join(", ")}` };
}

function map(product: Product, ch: CompiledChannel, context: MappingContext): MapResult {
  const s = ch.settings;
  const shared = productFacts(product, context);
  const refusal = offerRefusal(product, shared, s, context.priceUnit);
  const useCatalogue = refusal !== undefined && s.offers.whenRefused === "catalogue";
  const facts = useCatalogue ? withoutOffer(shared) : shared;
  const offer = facts.offer;
  const allowed = eligibility(product, facts, ch, context.clock, context);
  const early = allowed.reasons;
  if (context.offers !== undefined && shared.offer === undefined && s.offers.whenMissing === "skip") early.push({ code: "NO_OFFER" });
  if (refusal !== undefined && !useCatalogue) early.push(refusal);
  const availability = offer?.availability ?? "in_stock";
  if (availability === "out_of_stock" && s.offers.excludeOutOfStock) early.push({ code: "OUT_OF_STOCK" });
  if (early.length > 0) return { ok: false, reasons: early };

  const chain = ch.chain;
  const primary = chain[0];
  const fallbacks: Record<string, string> = {};
  const warnings: Reason<WarningCode>[] = useCatalogue ? [{ code: "OFFER_NOT_USED", detail: refusal.detail ?? "" }] : [];
  const problems: Reason[] = [];
  // Counted first: a product written for another language is not for this feed, whatever else it lacks.
  const language: Reason[] = [];
  const state = startState(product, facts, ch, context, availability);

  // Brand names are the same in every language: any locale will do.
  for (const raw of facts.brandNames) {
    const r = resolveAnyLocale(raw, chain);
    if (r === undefined) continue;
    state.brand = nameToText(r.value);
    if (state.brand === "") {
      state.brand = undefined;
      continue;
    }
    if (r.locale !== primary) fallbacks.brand = r.locale;
    break;
  }
  if (state.brand === undefined && s.brand.required) problems.push({ code: "MISSING_BRAND" });
  for (const kind of s.codes.required) {
    if (facts.national.codes[kind] === undefined) problems.push({ code: "MISSING_CODE", detail: kind });
  }
  // Titles and descriptions: the channel's language only, unless the channel opts in per field.
  const name = resolveLocalized(product.name, s.title.fallback ? chain : ch.languageChain);
  const nameText = name === undefined ? "" : nameToText(name.value);
  if (name !== undefined && nameText !== "") {
    state.name = nameText;
    if (name.locale !== primary) fallbacks.name = name.locale;
  } else {
    const other = inOtherLanguages("title", localesWithText(product.name));
    if (other !== undefined) language.push(other);
    else problems.push({ code: "MISSING_TITLE" });
  }
  const seo = resolveLocalized(product.seoName, chain);
  if (seo !== undefined) {
    state.seoName = seo.value.trim();
    if (seo.locale !== primary) fallbacks.seoName = seo.locale;
  }

  const d = s.description;
  // One language per feed unless the channel opts in (README, Presets, Languages); shared per locale chain (locale-cache.ts).
  const description = d.fallback ? sharedDescription(product, d, chain, ch.chainKey, context) : sharedDescription(product, d, ch.languageChain, ch.languageChainKey, context);
  if (description !== undefined) {
    if (description.locale !== primary) fallbacks.description = description.locale;
    if (description.truncated) warnings.push({ code: "DESCRIPTION_TRUNCATED" });
  } else if (d.required) {
    // Only on this rare path: is there a usable description in some other language?
    const others = sharedDescriptionLocales(product, d, context);
    const other = inOtherLanguages("description", others);
    if (other !== undefined) language.push(other);
    else problems.push({ code: "MISSING_DESCRIPTION" });
  }

  const ids = channelIdentifiers(facts, state.brand, s.gtin);
  state.gtin = ids.gtin;
  if (ids.problem !== undefined) problems.push(ids.problem);
  if (ids.warnings.length > 0) warnings.push(...ids.warnings);

  const price = selectPrice(product, facts, s.price.sources, context.priceUnit);
  let sale: ReturnType<typeof activeSale>["sale"];
  if (!price.ok) problems.push(price.reason);
  else {
    state.priceCents = price.value.cents;
    warnings.push(...price.value.warnings);
    const r = activeSale(facts, price.value.cents, context.clock);
    sale = r.sale;
    if (r.warning !== undefined) warnings.push(r.warning);
    state.salePriceCents = sale?.cents;
  }

  let names: string[] = [];
  let google: string | undefined;
  if (facts.category !== undefined) {
    const path = categoryPath(context, facts.category, chain, ch.chainKey, facts.extraCategories);
    names = path.names;
    if (path.fallbackLocale !== undefined) fallbacks.category = path.fallbackLocale;
    if (names.length > 0) state.productType = names.join(s.categories.separator);
    if (facts.extraCategories === undefined && ch.googleMemo.has(facts.category)) google = ch.googleMemo.get(facts.category);
    else {
      google = googleCategory(facts.categoryAncestors, s.categories.googleCategoryMap);
      if (facts.extraCategories === undefined) ch.googleMemo.set(facts.category, google);
    }
  }
  google ??= s.categories.defaultGoogleCategory === undefined ? undefined : String(s.categories.defaultGoogleCategory);
  if (state.productType === undefined && s.categories.defaultPath !== undefined) {
    state.productType = s.categories.defaultPath;
    names = [s.categories.defaultPath];
  }
  if (state.productType === undefined && s.categories.required) problems.push({ code: "MISSING_CATEGORY" });

  let title = "";
  if (state.name !== undefined) {
    const t = finishTitle(ch.title.render(state).text, state.brand, s.title.maxLength, { dropDecorations: s.title.emoji === "drop" });
    title = t.text;
    if (title === "") problems.push({ code: "MISSING_TITLE", detail: "the title template renders empty" });
    if (t.truncated) warnings.push({ code: "TITLE_TRUNCATED" });
  }
  state.title = title;

  // Every URL leaves mapping ASCII and RFC 3986 (feed-url.ts): a spreadsheet's `/p/crème-été` included.
  let link = offer?.link === undefined ? "" : feedUrl(offer.link);
  if (link === "") {
    if (ch.link === undefined) problems.push({ code: "MISSING_LINK", detail: "no link template" });
    else {
      const r = ch.link.render(state);
      const url = feedUrl(r.text);
      if (r.missing !== undefined) problems.push({ code: "MISSING_LINK", detail: `no value for {{${r.missing}}}` });
      else if (!isHttpUrl(url) || url.length > s.link.maxLength) problems.push({ code: "MISSING_LINK", detail: r.text.slice(0, 120) });
      else link = url;
    }
  }

  const date = availabilityDate(availability, offer?.availabilityDate, s.offers.requireAvailabilityDate);
  if (date.problem !== undefined) problems.push(date.problem);

  const images = sharedImages(product, ch.images, context);
  if (images.length === 0 && s.images.required) problems.push({ code: "NO_IMAGE" });

  const idRendered = ch.id.render(state);
  const id = idRendered.text.trim();
  if (idRendered.missing !== undefined || id === "" || id.length > s.id.maxLength) {
    problems.push({ code: "INVALID_ID", detail: idRendered.missing === undefined ? id.slice(0, 120) : `no value for {{${idRendered.missing}}}` });
  }

  const reasons: Reason[] = [];
  for (const rule of ch.exclude) {
    if (rule.test(state)) {
      reasons.push({ code: "RULE_EXCLUDED", detail: rule.name });
      break;
    }
  }
  if (ch.include !== undefined && !ch.include(state)) reasons.push({ code: "RULE_NOT_INCLUDED" });
  if (reasons.length > 0 || language.length > 0 || problems.length > 0) return { ok: false, reasons: reasons.concat(language, problems) };

  if (facts.national.warnings.length > 0) warnings.push(...facts.national.warnings);
  const units = itemUnitPricing(product.packageContent, state.name, state.salePriceCents ?? state.priceCents, s);
  if (units.warning !== undefined) warnings.push(units.warning);
  const custom: Record<string, string> = {};
  for (const [key, template] of ch.custom) custom[key] = template.render(state).text;
  const leaflet = leafletUrl(product, chain);
  if (leaflet !== undefined && leaflet.locale !== primary) fallbacks.leaflet = leaflet.locale;
  const format = s.price;
  const regular = formatMoney(state.priceCents as number, s.currency, format);
  const salePrice = sale === undefined ? undefined : formatMoney(sale.cents, s.currency, format);
  const item: FeedItem = {
    id,
    title,
    description: description?.text ?? "",
    link,
    landingPageUrl: withoutTracking(link),
    imageLink: images[0] ?? "",
    additionalImageLinks: images.length > 1 ? images.slice(1) : [],
    price: regular,
    salePrice,
    currentPrice: salePrice ?? regular,
    salePriceFrom: sale?.from,
    salePriceUntil: sale?.until,
    salePriceEffectiveDate: sale?.from !== undefined && sale.until !== undefined ? `${sale.from}/${sale.until}` : undefined,
    availability,
    availabilityDate: date.value,
    stockQuantity: offer?.quantity,
    condition: "new",
    brand: state.brand,
    gtin: ids.gtin,
    gtins: ids.gtins,
    mpn: facts.mpn,
    identifierExists: ids.identifierExists,
    googleProductCategory: google,
    categoryPath: names,
    productType: state.productType,
    categoryType: facts.categoryType,
    weight: facts.weight,
    packageContent: typeof product.packageContent === "string" && product.packageContent.trim() !== "" ? product.packageContent.trim() : undefined,
    unitPricingMeasure: units.measure,
    unitPricingBaseMeasure: units.base,
    unitPrice: units.price,
    cip13: facts.cip13,
    acl13: facts.acl13,
    codes: facts.national.any ? facts.national.codes : undefined,
    policy: allowed.carry,
    leafletUrl: leaflet?.value,
    prescription: facts.prescription,
    locale: s.locale,
    fallbacks,
    custom,
  };
  return { ok: true, item, fallbacks, warnings };
}
