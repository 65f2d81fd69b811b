/** The gate's and the run's own texts in a shop manager's words, pinned against what gate.ts and failed-run.ts write. */
import { describe, expect, it } from "vitest";
import { evaluateGate } from "../../src/publish/gate.js";
import { errorWords, RUN_WORDS, unpublishedWords } from "../../src/publish/run-words.js";
import { itemsChart } from "../../src/serve/chart.js";

const settings = { maxDropPercent: 20, maxRejectedPercent: 25, emptyColumns: "refuse" as const };
function reason(input: Parameters<typeof evaluateGate>[0]): string {
  const verdict = evaluateGate(input, settings);
  if (verdict.publish) throw new Error("expected a gate trip");
  return `gate: ${verdict.reason}`;
}

describe("unpublishedWords", () => {
  it("says every gate reason in words, without its config key, in each language", () => {
    const cases = [
      [reason({ items: 500, rejected: 0, liveItems: 1011 }), "1,011 → 500 items (−50.5 %), a bigger drop than the 20 % allowed", "1\u202f011 → 500 articles (−50,5 %), une baisse plus forte que les 20 % admis"],
      [reason({ items: 70, rejected: 30 }), "30.0 % of products rejected for bad data (30), more than the 25 % allowed", "30,0 % des produits rejetés pour données erronées (30), plus que les 25 % admis"],
      [reason({ items: 5, rejected: 0, emptyColumns: ["sale"] }), 'columns empty in every row: "sale"', 'colonnes vides dans toutes les lignes : "sale"'],
      [reason({ items: 5, rejected: 0, move: { from: "a.xml", to: "a.csv" } }), "the file name would change from a.xml to a.csv, and the address the marketplace uses would stop working", "le nom du fichier passerait de a.xml à a.csv, et l'adresse utilisée par la place de marché ne répondrait plus"],
      ["failed: the run failed (SOURCE_NETWORK); previous file kept", RUN_WORDS.en.gate.runFailed, RUN_WORDS.fr.gate.runFailed],
      ["failed: ENOSPC: no space left on device", RUN_WORDS.en.gate.failed, RUN_WORDS.fr.gate.failed],
    ];
    for (const [text, en, fr] of cases) {
      expect(unpublishedWords(text!, "en")).toBe(en);
      expect(unpublishedWords(text!, "fr")).toBe(fr);
      expect(unpublishedWords(text!, "nl")).not.toBe(RUN_WORDS.nl.gate.other);
      expect(unpublishedWords(text!, "fr")).not.toMatch(/maxDropPercent|maxRejectedPercent|emptyColumns/);
    }
  });

  it("an unknown error code gets words too", () => {
    expect(errorWords("SOURCE_NETWORK", "nl")).toBe("de catalogus was niet bereikbaar");
    expect(errorWords("SOMETHING_NEW", "fr")).toBe("l'exécution s'est arrêtée sur une erreur");
  });
});

describe("itemsChart", () => {
  it("after a gate hold, says what is online now and, apart, the held run's count; one run is a sentence, not a dot (34.3, 34.8)", () => {
    const points = [
      { at: "2026-11-26T02:00:00Z", items: 1011, state: "published" as const },
      { at: "2026-11-27T02:00:00Z", items: 637, state: "gated" as const },
    ];
    const fr = itemsChart(points, "google-be-fr : articles", { ...RUN_WORDS.fr.chart, items: "articles" }, { online: 1011, format: (n) => new Intl.NumberFormat("fr").format(n) });
    expect(fr).toContain("Articles des 2 dernières exécutions : 1\u202f011 en ligne, au plus bas 637, au plus haut 1\u202f011, dernière exécution 637, non publiée");
    const one = itemsChart([points[0]!], "x", { ...RUN_WORDS.nl.chart, items: "artikelen" }, { online: 1011, format: (n) => new Intl.NumberFormat("nl").format(n) });
    expect(one).toBe('<p class="small muted chart-one">Artikelen van de laatste run: nu online 1.011</p>');
  });

  it("draws a failed run as failed, not as 0 items, and leaves it out of lowest and highest", () => {
    const svg = itemsChart(
      [
        { at: "2026-11-25T02:00:00Z", items: 1011, state: "published" },
        { at: "2026-11-26T02:00:00Z", items: 0, state: "failed" },
        { at: "2026-11-27T02:00:00Z", items: 1039, state: "gated" },
      ],
      "google-fr: items",
      { ...RUN_WORDS.en.chart, items: "items" },
    );
    expect(svg).toContain("Items in the last 3 runs: online now 1039, lowest 1011, highest 1039");
    expect(svg).toContain("<title>2026-11-26 02:00 UTC: run failed</title>");
    expect(svg).toContain("<title>2026-11-27 02:00 UTC: 1039 items (not published)</title>");
    expect(svg).not.toContain(": 0 items");
    // The line joins the runs that produced a file only.
    expect(svg.match(/points="([^"]+)"/)![1]!.split(" ")).toHaveLength(2);
  });
});
