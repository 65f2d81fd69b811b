/**
 * The rules in force when no table is loaded (mapping used as a library, unit tests): the two
 * rows of config/policy/all.json every table starts from. test/policy/table.test.ts keeps them equal.
 */
import type { PolicyRow } from "./schema.js";

export const BUILTIN_RULES: readonly (PolicyRow & { from: string })[] = [
  {
    channel: "*",
    country: "*",
    class: "prescription-medicine",
    verdict: "deny",
    source: "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:02001L0083-20220101",
    verified: "2026-11-29",
    recheck: "2027-11-29",
    rule: "Directive 2001/83/EC, Article 88: Member States prohibit the advertising to the general public of medicinal products available on medical prescription only.",
    from: "built in",
  },
  {
    channel: "*",
    country: "*",
    class: "*",
    verdict: "allow",
    source: "docs/policy.md#defaults",
    verified: "2026-11-29",
    recheck: "2027-11-29",
    rule: "pharmafeed's default: what no row restricts is allowed.",
    from: "built in",
  },
];
