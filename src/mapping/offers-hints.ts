/**
 * What a spreadsheet does to an offers file, in words a shop can act on (issue 23.4): the
 * parser's own message ("10 fields, the header has 9", "not digits") says what broke, not
 * what to do about it in Excel or LibreOffice.
 */

export const DECIMAL_COMMA_HINT =
  "prices like 12,50 in a comma-separated file: each comma splits a price in two. Save as CSV with ';' as the separator, or put the prices in quotes (\"12,50\")";

/** Pairs of neighbouring fields that read as one decimal number cut at its comma: "12" then "50". */
export function decimalCommas(record: readonly string[]): number {
  let pairs = 0;
  for (let i = 0; i + 1 < record.length; i++) {
    if (/^\s*-?\d+$/.test(record[i]!) && /^\d{1,3}\s*$/.test(record[i + 1]!)) {
      pairs++;
      i++;
    }
  }
  return pairs;
}

/** A code a spreadsheet showed as a number in scientific notation: 9,24159E+10, 3.40093E+12. */
export const SCIENTIFIC = /^\d+(?:[.,]\d+)?E\+?\d+$/i;

/** Without the row's value, so that every row of the column says the same and is said once. */
export function scientificHint(field: string): string {
  return `${field} codes shown like 9,24159E+10: the spreadsheet turned them into numbers in scientific notation and lost digits. Format the ${field} column as text before saving, and type or paste the codes again`;
}
