import { describe, expect, it } from "vitest";
import { checkRecord, readEnvelope } from "../../src/catalogue/stream/line.js";
import { Product } from "../../src/catalogue/schemas/product.js";

describe("readEnvelope", () => {
  it("reads index, total and the result of a stream line", () => {
    const envelope = readEnvelope('{"meta":{"total":3,"index":1},"result":{"id":"M1"}}', 2);
    expect(envelope).toEqual({ ok: true, index: 1, total: 3, result: { id: "M1" } });
  });

  it("reports broken JSON as MALFORMED_LINE with the product id when it leads the record", () => {
    const envelope = readEnvelope('{"meta":{"total":3,"index":1},"result":{"id":"M34C3D3A5E","name":{"fr":"Crè', 7);
    expect(envelope).toMatchObject({ ok: false, reason: { code: "MALFORMED_LINE", line: 7, id: "M34C3D3A5E" } });
  });

  it("reports a line that is JSON but not a stream line, with the failing path", () => {
    expect(readEnvelope('{"meta":{"total":3},"result":{"id":"M1"}}', 4)).toMatchObject({
      ok: false,
      reason: { code: "MALFORMED_LINE", line: 4, id: "M1", path: "meta.index" },
    });
    expect(readEnvelope("[1,2]", 5)).toMatchObject({ ok: false, reason: { code: "MALFORMED_LINE" } });
  });

  it("reports an over-long line", () => {
    expect(readEnvelope(null, 9)).toMatchObject({ ok: false, reason: { code: "MALFORMED_LINE", line: 9 } });
  });
});

describe("checkRecord", () => {
  it("returns the validated record", () => {
    expect(checkRecord(Product, { id: "M1", vat: 21 }, 1, 0)).toEqual({ ok: true, value: { id: "M1", vat: 21 } });
  });

  it("reports INVALID_RECORD with the JSON path within the line and the product id", () => {
    const checked = checkRecord(Product, { id: "M1", brands: [{ id: "x" }] }, 3, 2);
    expect(checked).toMatchObject({ ok: false, reason: { code: "INVALID_RECORD", line: 3, index: 2, id: "M1", path: "result.brands[0].id" } });
  });
});
