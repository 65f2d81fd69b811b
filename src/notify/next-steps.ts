/**
 * What to do next, with every command complete and copyable: the real channel names, the real
 * config file, `--force` only where it publishes what the shop means. The alerts and the status
 * page (serve/status/sections.ts) say the same, in the same language.
 */
import type { Manifest } from "../publish/manifest.js";
import { unpublishedOf } from "../publish/run-state.js";
import { fill } from "../publish/run-words.js";
import { ALERT_WORDS, type AlertLanguage } from "./alert-words.js";
import type { AlertEvent } from "./settings.js";

export interface NextInput {
  event: AlertEvent;
  language: AlertLanguage;
  /** The run's manifest, when it got that far (or the one serve reads). */
  manifest?: Manifest | undefined;
  error?: { code: string } | undefined;
  /** The config file the run was given: part of every command (cron's working directory is not the shop's). */
  configFile?: string | undefined;
  /** offers-refused: whether `--force` would publish what the shop means (offers-file.ts). */
  forceHelps?: boolean | undefined;
  /** A shop of a config with shops (docs/shops.md): every command names it, so that `--force` forces that shop only. */
  shop?: string | undefined;
}

const SOURCE = /^(SOURCE_|RATE_LIMITED|QUERY_INVALID|RESULT_WINDOW)/;

/** A shell word as it must be typed (names and paths with spaces or quotes). */
function word(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

export function command(configFile: string | undefined, ...args: string[]): string {
  return ["pharmafeed", ...args, ...(configFile ? ["--config", configFile] : [])].map((a, i) => (i === 0 ? a : word(a))).join(" ");
}

/** The channel names given with --channel each. */
function channelArgs(names: readonly string[]): string[] {
  return names.flatMap((n) => ["--channel", n]);
}

/** `--shops <shop>` for generate, `--shop <shop>` for the one-shop commands; nothing for a config of one shop. */
export function shopArgs(shop: string | undefined, commandName: string): string[] {
  if (shop === undefined) return [];
  return commandName === "generate" ? ["--shops", shop] : ["--shop", shop];
}

export function nextStep(input: NextInput): string {
  const w = ALERT_WORDS[input.language];
  const m = input.manifest;
  const unpublished = m ? (m.unpublished ?? unpublishedOf(m.channels)) : [];
  const cmd = (configFile: string | undefined, name: string, ...args: string[]) => command(configFile, name, ...shopArgs(input.shop, name), ...args);
  const config = input.configFile;
  switch (input.event) {
    case "gate-tripped": {
      const gated = unpublished.filter((u) => u.kind === "gate").map((u) => u.channel);
      return fill(w.next["gate-tripped"], {
        reports: gated.length > 0 ? gated.map((n) => `reports/${n}.csv`).join(", ") : "reports/",
        cmd: cmd(config, "generate", ...channelArgs(gated), "--force"),
      });
    }
    case "channel-failed":
      return fill(w.next["channel-failed"], { cmd: cmd(config, "generate", ...channelArgs(unpublished.filter((u) => u.kind === "failed").map((u) => u.channel))) });
    case "offers-refused":
      return fill(w.next["offers-refused"], {
        cmd: cmd(config, "generate"),
        force: input.forceHelps === true ? fill(w.forceYes, { cmd: cmd(config, "generate", "--force") }) : w.forceNo,
      });
    case "run-degraded": {
      const held = (m?.problems ?? []).filter((p) => p.kind === "served" && p.channel);
      const retire = held.map((p) => fill(w.retire, { channel: p.channel!, near: p.near ? fill(w.nearName, { near: p.near }) : "", cmd: cmd(config, "generate", "--retire", p.channel!) }));
      return fill(w.next["run-degraded"], { retire: retire.join("") });
    }
    case "run-failed": {
      const code = input.error?.code ?? "other";
      const hint = SOURCE.test(code) ? w.hint["source"]! : (w.hint[code] ?? w.hint["other"]!);
      return fill(w.next["run-failed"], { hint: fill(hint, { validate: cmd(config, "validate") }), cmd: cmd(config, "generate") });
    }
    default:
      return w.next[input.event];
  }
}
