/** The checks the e2e and golden tests rely on are themselves checked here. */
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { hasValidCheckDigit, rfc4180Problem } from "./feeds.js";

describe("hasValidCheckDigit (GS1 mod 10)", () => {
  it.each(["4006381333931", "96385074", "036000291452", "10614141000415", "5486837619786"])("accepts %s", (code) => {
    expect(hasValidCheckDigit(code)).toBe(true);
  });
  it.each(["4006381333932", "96385075", "036000291453", "10614141000416", "400638133393", "40063813339311", "", "400638133393a"])("refuses %s", (code) => {
    expect(hasValidCheckDigit(code)).toBe(false);
  });
});

describe("rfc4180Problem", () => {
  const quotedEverywhere = (rows: string[][]) => stringify(rows, { record_delimiter: "windows", quoted_match: /[\r\n]/ });

  it("accepts CRLF records with quoted commas, quotes and line breaks", () => {
    expect(rfc4180Problem(quotedEverywhere([["id", "text"], ["1", 'a, "b"\nc\r\nd'], ["2", ""]]))).toBeUndefined();
    expect(rfc4180Problem("")).toBeUndefined();
  });

  it("refuses a bare LF or CR outside quotes, a stray quote, an unterminated field", () => {
    expect(rfc4180Problem("id,text\r\n1,a\nb\r\n")).toMatch(/line 2: a bare LF/);
    expect(rfc4180Problem("id,text\r\n1,a\rb\r\n")).toMatch(/bare CR/);
    expect(rfc4180Problem('id,text\r\n1,a"b\r\n')).toMatch(/quote inside an unquoted field/);
    expect(rfc4180Problem('id,text\r\n1,"ab\r\n')).toMatch(/unterminated/);
  });
});
