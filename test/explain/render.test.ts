/** explain's text for a terminal. */
import { describe, expect, it } from "vitest";
import { renderExplain } from "../../src/explain/render.js";

describe("renderExplain", () => {
  it("indents every line of a multi-line row alike, the first as the others", () => {
    const text = renderExplain({
      query: "P1",
      matchedBy: "id",
      runStartedAt: "2026-11-25T00:00:00.000Z",
      total: 1,
      products: [{ id: "P1", name: "Crème", channels: [{ channel: "google-fr", outcome: "in_feed", file: "google-fr.xml", offset: 216, bytes: 40, row: "\n<item>\n<g:id>P1</g:id>\n</item>" }] }],
    });
    const rowLines = text.split("\n").filter((l) => l.includes("|"));
    expect(rowLines).toEqual(["      | <item>", "      | <g:id>P1</g:id>", "      | </item>"]);
  });
});
