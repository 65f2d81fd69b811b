/**
 * The marketplace each preset's feeds go to, as the health policy table names it (config/policy/,
 * docs/policy.md): google-tsv is Google, meta-xml is Meta; a channel file may set policy.channel.
 */
import type { Marketplace } from "../policy/schema.js";

export const POLICY_CHANNELS: Readonly<Record<string, Marketplace>> = {
  google: "google",
  "google-tsv": "google",
  microsoft: "microsoft",
  meta: "meta",
  "meta-xml": "meta",
  idealo: "idealo",
  kelkoo: "kelkoo",
  beslist: "beslist",
  "generic-csv": "generic",
  "generic-json": "generic",
  "generic-ndjson": "generic",
  medizinfuchs: "medizinfuchs",
  billiger: "billiger",
  "idealo-de": "idealo",
};

export function policyChannelOf(preset: string): Marketplace {
  return POLICY_CHANNELS[preset] ?? "generic";
}
