/**
 * `pharmafeed policy [--channel X] [--country BE] [--check]`: the health policy table in effect for
 * the config (the shipped rows with the config's over them; docs/policy.md). With a channel of the
 * config, also the row deciding each product class there. `--check` lists rows past their re-check
 * date and exits 1 when there are any (a cron job's mail).
 */
import type { Argv, CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";
import { PharmafeedError } from "../errors.js";
import { isDay, overdueRules, type PolicyRule, ruleKey, rulesInEffect } from "../policy/index.js";
import { decisionsText, rowsFor, rowsText } from "../policy/print.js";
import { SHOP_OPTION } from "./flags.js";

export interface PolicyArgs {
  config: string;
  /** A config with shops: the shop (docs/shops.md). */
  shop?: string;
  channel?: string;
  country?: string;
  check: boolean;
  json: boolean;
  today?: string;
}

/** Each row once (the channels share the config's rows), by key and where it was read. */
function uniqueRules(rules: readonly PolicyRule[]): PolicyRule[] {
  return [...new Map(rules.map((r) => [`${ruleKey(r)} ${r.from}`, r])).values()];
}

export const policyCommand: CommandModule<object, PolicyArgs> = {
  command: "policy",
  describe: "Print the health policy table in effect (docs/policy.md); --check lists rows past their re-check date",
  builder: (yargs) =>
    yargs
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("shop", SHOP_OPTION)
      .option("channel", { type: "string", describe: "a channel of the config (its marketplace and country), or a marketplace of the table (google, meta, ...)" })
      .option("country", { type: "string", describe: "only rows for this country (ISO 3166, e.g. BE)", coerce: (v: unknown) => (typeof v === "string" ? v.toUpperCase() : v) })
      .option("check", { type: "boolean", default: false, describe: "list the rows past their re-check date; exit 1 when there are any" })
      .option("json", { type: "boolean", default: false, describe: "print the rows as JSON" })
      .option("today", {
        type: "string",
        describe: "the date --check compares with (default: today, UTC), e.g. to see what falls due by then",
        coerce: (v: unknown) => {
          if (typeof v !== "string" || !isDay(v)) throw new Error(`--today: expected a date YYYY-MM-DD, got ${JSON.stringify(v)}`);
          return v;
        },
      }) as unknown as Argv<PolicyArgs>,
  handler: async (args) => {
    if (args.country !== undefined && !/^[A-Z]{2}$/.test(args.country)) throw new PharmafeedError("USAGE", `--country: expected an ISO 3166 code such as BE, got ${JSON.stringify(args.country)}`);
    const config = await loadConfig(args.config, { ...(args.shop === undefined ? {} : { shop: args.shop }), checkCredentials: false, notify: false });
    const today = args.today ?? new Date().toISOString().slice(0, 10);
    const own = args.channel === undefined ? undefined : config.channels.find((c) => c.name === args.channel);
    const market = own?.mapping.policy.channel ?? args.channel;
    const country = args.country ?? own?.mapping.country;
    const marketplaces = new Set(config.policy.map((r) => r.channel).filter((c) => c !== "*"));
    if (args.channel !== undefined && own === undefined && !marketplaces.has(args.channel)) {
      throw new PharmafeedError("USAGE", `--channel: "${args.channel}" is neither a channel of the config (${config.channelNames.join(", ")}) nor a marketplace of the table (${[...marketplaces].sort().join(", ")})`);
    }
    // A channel of the config has its own rows in effect: its policy.rows, and rows of its eligibility.allow* switches.
    const inEffect = ({ mapping: m }: (typeof config.channels)[number]) => rulesInEffect(m.policy.rows, m.eligibility, m.policy.channel, m.country);
    const rules: readonly PolicyRule[] = own === undefined ? config.policy : inEffect(own);
    // --check of the whole config: every channel's own rows too (the status page warns of those).
    const checked = own === undefined && args.check ? uniqueRules([...config.policy, ...config.channels.flatMap(inEffect)]) : rules;
    const shown = args.check ? overdueRules(rowsFor(checked, market, country), today) : rowsFor(rules, market, country);
    if (args.json) process.stdout.write(`${JSON.stringify({ today, channel: market ?? null, country: country ?? null, rows: shown }, null, 2)}\n`);
    else {
      const out: string[] = [];
      if (args.check) out.push(shown.length === 0 ? `policy: no row is past its re-check date (${today})` : `policy: ${shown.length} row${shown.length === 1 ? " is" : "s are"} past ${shown.length === 1 ? "its" : "their"} re-check date (${today}); check the source and update verified / recheck:`);
      if (!args.check || shown.length > 0) out.push(rowsText(shown, today));
      if (!args.check && market !== undefined && country !== undefined) {
        const held = new Set(config.shop.certifications ?? []);
        out.push("", `In effect for ${market} in ${country}${own ? ` (channel ${own.name})` : ""}; the shop holds: ${[...held].join(", ") || "no certification"}`, decisionsText(rules, market, country, held));
      }
      process.stdout.write(`${out.join("\n")}\n`);
    }
    if (args.check && shown.length > 0) process.exitCode = 1;
  },
};
