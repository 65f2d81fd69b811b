/**
 * The offers file of a run: read as a stream (a chain's file has millions of
 * rows), then judged before any work. A file the parser cannot use (a header
 * without a key column or with an unknown column), one with too few rows
 * accepted, or one with far fewer offers than the last run is refused: a user's
 * mistake must not become feeds with catalogue prices and every product in
 * stock. `validate` and `generate` apply the same verdict; `--force` overrides.
 */
import { createReadStream } from "node:fs";
import type { OffersConfig } from "../config/types.js";
import { PharmafeedError } from "../errors.js";
import { LineDecoder } from "../mapping/offers-decode.js";
import type { OfferColumns } from "../mapping/offers-columns.js";
import { OffersReader, type ParsedOffers } from "../mapping/offers-parse.js";
import type { OfferError } from "../mapping/offers.js";

/** Reads the file in chunks, one physical line at a time into the reader: only the index grows. `columns`: offers.columns, offers.ignoreColumns. */
export async function readOffersFile(file: string, format: "csv" | "json", columns?: OfferColumns): Promise<ParsedOffers> {
  const reader = new OffersReader(format, columns);
  // UTF-8 or UTF-16, lines ended by LF, CR LF or CR: as spreadsheets save them (mapping/offers-decode.ts).
  const lines = new LineDecoder();
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) for (const line of lines.push(chunk as Buffer)) reader.push(line);
  } catch (cause) {
    throw new PharmafeedError("CONFIG_INVALID", `offers file ${file}: ${(cause as Error).message}`, { cause, context: { file } });
  }
  for (const line of lines.end()) reader.push(line);
  return reader.finish();
}

/** Refused rows named in a refusal message; the report lists all of them. */
const LINES_SHOWN = 10;

/** "line 3", or "lines 2, 3, 4, 5, 6 and 7 more (reports/_offers.csv)" */
function lineList(lines: number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  const first = lines.slice(0, 5).join(", ");
  return lines.length > 5 ? `lines ${first} and ${lines.length - 5} more (reports/_offers.csv)` : `lines ${first}`;
}

function describe(e: OfferError): string {
  // Already a sentence: the header, the field it likely is and how to map it (mapping/offers-columns.ts).
  if (e.reason === "OFFER_UNKNOWN_FIELD") return e.detail;
  return `${e.reason}: ${e.detail}`;
}

/** Why the file must not be used, one line each; empty when it may. `previousAccepted`: the last run's accepted offers. */
export function offersProblems(parsed: ParsedOffers, settings: Pick<OffersConfig, "minAcceptedPercent" | "maxDropPercent">, previousAccepted?: number): string[] {
  const problems: string[] = [];
  // One line per distinct structural problem (a JSON typo repeats on every object).
  const seen = new Set<string>();
  for (const e of parsed.structure) {
    const text = describe(e);
    if (seen.has(text)) continue;
    seen.add(text);
    problems.push(`${e.line > 0 ? `line ${e.line}: ` : ""}${text}`);
  }
  const accepted = parsed.offers.size;
  const { rows } = parsed;
  if (rows === 0 && problems.length === 0) problems.push("no offer rows (a header line, then one row per offer)");
  if (rows > 0) {
    const percent = (accepted / rows) * 100;
    if (percent < settings.minAcceptedPercent) {
      const structural = new Set(parsed.structure);
      const bad = parsed.errors.filter((e) => e.line > 0 && !structural.has(e));
      // The same problem on many rows (a spreadsheet's doing: decimal commas, codes in scientific
      // notation) is said once, with its lines, not once a row.
      const groups = new Map<string, number[]>();
      for (const e of bad) {
        const what = `${e.reason} ${e.detail}`;
        const lines = groups.get(what);
        if (lines) lines.push(e.line);
        else if (groups.size < LINES_SHOWN) groups.set(what, [e.line]);
      }
      const shown = [...groups].map(([what, lines]) => `${lineList(lines)} ${what}`);
      const named = [...groups.values()].reduce((n, lines) => n + lines.length, 0);
      const hidden = parsed.errorCount - parsed.structure.length - named;
      const more = hidden > 0 ? `; ${hidden} more in reports/_offers.csv` : "";
      problems.push(
        `${accepted} of ${rows} rows accepted (${percent.toFixed(1)}%), fewer than offers.minAcceptedPercent ${settings.minAcceptedPercent}%` +
          (shown.length > 0 ? `: ${shown.join("; ")}${more}` : ""),
      );
    }
  }
  if (previousAccepted !== undefined && previousAccepted > 0) {
    const drop = ((previousAccepted - accepted) / previousAccepted) * 100;
    if (drop > settings.maxDropPercent) {
      problems.push(`${accepted} offers accepted against ${previousAccepted} in the last run (-${drop.toFixed(1)}%), more than offers.maxDropPercent ${settings.maxDropPercent}%`);
    }
  }
  return problems;
}

/** The error of a refused file: what is wrong and which lines, what stays, how to override. */
export function offersRefused(file: string, problems: string[], parsed: ParsedOffers, when: "run" | "validate" = "run"): PharmafeedError {
  const firstLine = parsed.errors.find((e) => e.line > 0)?.line;
  const what = when === "run" ? "refused: nothing was published, the live feeds stay" : "would be refused by generate: nothing would be published";
  const helps = forceHelps(parsed);
  const override = helps
    ? "--force uses the file anyway, if it is right as it is"
    : "fix the file: --force would publish without the refused rows, each of their products left out or sold at catalogue prices and stock (offers.whenRefused, offers.whenMissing)";
  return new PharmafeedError("OFFERS_REFUSED", `offers file ${file} ${what} (${override})\n${problems.map((p) => `  - ${p}`).join("\n")}`, {
    context: { file, forceHelps: helps, ...(firstLine === undefined ? {} : { line: firstLine }) },
  });
}

/**
 * Whether `--force` publishes what the shop means: only for a file every row of which was read
 * (fewer offers than last time, on purpose perhaps). With a refused header or refused rows it would
 * publish catalogue prices and stock for those products: the advice is then to fix the file.
 */
export function forceHelps(parsed: ParsedOffers): boolean {
  return parsed.structure.length === 0 && parsed.errorCount === 0 && parsed.rows > 0;
}

export interface LoadedOffers {
  file: string;
  parsed: ParsedOffers;
  /** Why the file is refused (offersProblems); empty when it is fit to use. */
  problems: string[];
}

/** Reads and judges the run's offers file against its thresholds and the last run's count. */
export async function loadOffers(config: OffersConfig, previousAccepted: number | undefined): Promise<LoadedOffers> {
  const parsed = await readOffersFile(config.file, config.format, config);
  return { file: config.file, parsed, problems: offersProblems(parsed, config, previousAccepted) };
}
