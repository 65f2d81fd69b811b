import { describe, expect, it } from "vitest";
import { evaluateGate } from "../../src/publish/gate.js";

const settings = { maxDropPercent: 20, maxRejectedPercent: 25 };

describe("publish gate", () => {
  it.each([
    [{ items: 100, rejected: 0 }, true, "first run"],
    [{ items: 80, rejected: 0, liveItems: 100 }, true, "20% drop is allowed"],
    [{ items: 79, rejected: 0, liveItems: 100 }, false, "items dropped 21.0% (100 -> 79)"],
    [{ items: 0, rejected: 0, liveItems: 5 }, false, "items dropped 100.0%"],
    [{ items: 150, rejected: 0, liveItems: 100 }, true, "growth"],
    [{ items: 75, rejected: 25, liveItems: 75 }, true, "25% rejected is allowed"],
    [{ items: 74, rejected: 26 }, false, "26.0% of products rejected"],
    [{ items: 0, rejected: 0 }, true, "empty first run"],
    [{ items: 100, rejected: 0, liveItems: 100, move: { from: "a.xml", to: "a.xml" } }, true, "same file name"],
    [{ items: 100, rejected: 0, liveItems: 100, move: { from: "a.xml", to: "a.csv" } }, false, "the file would move from a.xml to a.csv"],
  ])("%j -> %s (%s)", (input, publish, text) => {
    const verdict = evaluateGate(input, settings);
    expect(verdict.publish).toBe(publish);
    if (!verdict.publish) expect(verdict.reason).toContain(text);
  });

  it("publishes anything with force", () => {
    expect(evaluateGate({ items: 0, rejected: 10, liveItems: 100 }, settings, true)).toEqual({ publish: true });
  });
});
