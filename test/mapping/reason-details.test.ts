/** Every code a report can carry has words: a new reason or warning without them fails here, not in a catalogue team's report. */
import { describe, expect, it } from "vitest";
import { reasonDetail } from "../../src/mapping/reason-details.js";
import { REASON_CODES, WARNINGS } from "../../src/mapping/reasons.js";
import { ChannelMapping } from "../../src/mapping/settings.js";

const settings = ChannelMapping.parse({ locale: "nl", fallbackLocales: ["fr"] });

describe("reasonDetail", () => {
  it.each([...REASON_CODES, ...Object.keys(WARNINGS)])("%s is said in words, with the mapping's detail after them", (code) => {
    const sentence = reasonDetail({ code, detail: "DETAIL" }, settings);
    expect(sentence).toMatch(/^.{20,}: DETAIL$/);
  });
});
