/**
 * How a refused config says what is wrong (core/issues.ts): a review found paths a reader could not
 * tell apart (`offers.columns.EAN.13`), "Invalid input" with nothing expected, a key's problem said
 * as its value's, and 1e400 shown as null.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatIssue, jsonPath } from "../../src/core/issues.js";
import { ChannelMapping } from "../../src/mapping/settings.js";

const issues = (schema: z.ZodType, input: unknown) => {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error("accepted");
  return parsed.error.issues.map((i) => formatIssue(i, input));
};

describe("jsonPath", () => {
  it("writes a key that is not a plain name in brackets, so that no two paths read alike", () => {
    expect(jsonPath(["offers", "columns", "EAN.13"])).toBe('offers.columns["EAN.13"]');
    expect(jsonPath(["offers", "columns", "Prix TTC"])).toBe('offers.columns["Prix TTC"]');
    expect(jsonPath(["categories", "googleCategoryMap", "12"])).toBe('categories.googleCategoryMap["12"]');
    expect(jsonPath(["channels", 2, "images", "minPixels"])).toBe("channels[2].images.minPixels");
    expect(jsonPath(["eligibility", "allow-list", "x_1"])).toBe("eligibility.allow-list.x_1");
    expect(jsonPath([])).toBe("(root)");
  });
});

describe("formatIssue", () => {
  it("says what each alternative of a union takes instead of 'Invalid input'", () => {
    expect(issues(z.object({ size: z.union([z.number(), z.tuple([z.number(), z.number()])]) }), { size: "600" })).toEqual(['size: a number or a list ([...]) is needed, got "600"']);
  });

  it("says a record's refused key as the key's problem", () => {
    expect(issues(ChannelMapping, { categories: { googleCategoryMap: { "5.1": 491, "12": true } } })).toEqual([
      'categories.googleCategoryMap["12"]: a text or a number is needed, got true',
      'categories.googleCategoryMap["5.1"]: the key "5.1" is refused: a category id of the catalogue (digits)',
    ]);
  });

  it("says a number JSON reads as Infinity as what it is, not null", () => {
    expect(issues(z.object({ ms: z.number().int() }), JSON.parse('{ "ms": 1e400 }'))).toEqual(["ms: a number is needed, got a number too large to hold (1.8e308 or more)"]);
  });
});
