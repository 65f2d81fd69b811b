/**
 * A channel's mapping settings compiled once: templates parsed, rules turned
 * into closures, photo rendition order computed. mapProduct accepts either a
 * compiled channel or the settings object (compiled on first use and cached).
 */
import { channelRules, type ChannelRules, rulesInEffect } from "../policy/index.js";
import { ruleField, templateField, type MapState } from "./fields.js";
import { localeChain } from "./locale.js";
import { compileImages, type ImagePlan } from "./photos.js";
import { compileRule, type Predicate } from "./rules.js";
import { ChannelMapping, type ChannelMappingInput } from "./settings.js";
import { compileTemplate, type CompiledTemplate } from "./template.js";

const COMPILED: unique symbol = Symbol("pharmafeed.compiledChannel");

export interface CompiledChannel {
  readonly [COMPILED]: true;
  readonly name: string;
  readonly settings: ChannelMapping;
  /** Locale, its language, then the fallbacks. */
  readonly chain: string[];
  readonly chainKey: string;
  /** The channel's language alone (locale, then its language without region): titles and descriptions unless they opt in to fallbacks. */
  readonly languageChain: string[];
  /** languageChain joined, the locale cache's key for it. */
  readonly languageChainKey: string;
  readonly id: CompiledTemplate<MapState>;
  readonly title: CompiledTemplate<MapState>;
  readonly link: CompiledTemplate<MapState> | undefined;
  readonly custom: [string, CompiledTemplate<MapState>][];
  readonly include: Predicate<MapState> | undefined;
  readonly exclude: { name: string; test: Predicate<MapState> }[];
  readonly images: ImagePlan;
  /** The row deciding each health class on this channel and country (src/policy/table.ts). */
  readonly policy: ChannelRules;
  readonly certifications: ReadonlySet<string>;
  /** policy.generalSale: which OTC medicines are general sale on this channel. */
  readonly generalSale: Predicate<MapState> | undefined;
  /** Category id -> Google taxonomy id (or undefined), filled as products come. */
  readonly googleMemo: Map<number, string | undefined>;
}

export function compileChannel(settings: ChannelMapping, name = "channel"): CompiledChannel {
  const chain = localeChain(settings.locale, settings.fallbackLocales);
  const { eligibility } = settings;
  return {
    [COMPILED]: true,
    name,
    settings,
    chain,
    chainKey: chain.join(","),
    languageChain: localeChain(settings.locale, []),
    languageChainKey: localeChain(settings.locale, []).join(","),
    id: compileTemplate(settings.id.template, templateField),
    title: compileTemplate(settings.title.template, templateField),
    link: settings.link.template.trim() === "" ? undefined : compileTemplate(settings.link.template, templateField, { urlEncode: true }),
    custom: Object.entries(settings.custom).map(([k, t]) => [k, compileTemplate(t, templateField)]),
    include: eligibility.include === undefined ? undefined : compileRule(eligibility.include, ruleField),
    exclude: eligibility.exclude.map((rule, i) => ({ name: rule.name ?? `exclude[${i}]`, test: compileRule(rule, ruleField) })),
    images: compileImages(settings.images, chain),
    policy: channelRules(
      rulesInEffect(settings.policy.rows, eligibility, settings.policy.channel, settings.country),
      settings.policy.channel,
      settings.country,
    ),
    certifications: new Set(settings.policy.certifications),
    generalSale: settings.policy.generalSale === undefined ? undefined : compileRule(settings.policy.generalSale, ruleField),
    googleMemo: new Map(),
  };
}

/** Parse raw settings (defaults filled in) and compile; throws the zod error on bad settings. */
export function channelFromInput(input: ChannelMappingInput, name?: string): CompiledChannel {
  return compileChannel(ChannelMapping.parse(input), name);
}

export function isCompiledChannel(value: unknown): value is CompiledChannel {
  return typeof value === "object" && value !== null && COMPILED in value;
}

const cache = new WeakMap<ChannelMapping, CompiledChannel>();

export function compiledFor(channel: CompiledChannel | ChannelMapping): CompiledChannel {
  if (isCompiledChannel(channel)) return channel;
  let compiled = cache.get(channel);
  if (compiled === undefined) {
    compiled = compileChannel(channel);
    cache.set(channel, compiled);
  }
  return compiled;
}
