/**
 * The bytes of an offers file to its physical lines, as spreadsheets write them:
 * - UTF-8, with or without a byte order mark;
 * - UTF-16 with a byte order mark (Excel's "Unicode text", LibreOffice's "Unicode"),
 *   little- or big-endian; without one, a file whose first character has a zero byte
 *   beside it is read as UTF-16 too (no text file of offers starts with a NUL);
 * - lines ended by LF, CR LF, or CR alone (old Mac, Excel's "CSV (Macintosh)").
 * Bytes that are not valid in the encoding become U+FFFD (the row is then refused
 * with its line, never the file's reading).
 */

import { TextDecoder } from "node:util";

export type OffersEncoding = "utf-8" | "utf-16le" | "utf-16be";

/** The encoding the first bytes say, and how many bytes of byte order mark to skip. */
export function sniffEncoding(head: Uint8Array): { encoding: OffersEncoding; bom: number } {
  const [a, b, c] = [head[0], head[1], head[2]];
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: "utf-8", bom: 3 };
  if (a === 0xff && b === 0xfe) return { encoding: "utf-16le", bom: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: "utf-16be", bom: 2 };
  if (head.length >= 2 && a !== 0 && b === 0) return { encoding: "utf-16le", bom: 0 };
  if (head.length >= 2 && a === 0 && b !== 0) return { encoding: "utf-16be", bom: 0 };
  return { encoding: "utf-8", bom: 0 };
}

/** Node's TextDecoder has no UTF-16BE: its bytes are swapped into LE, a pair at a time. */
function swapPairs(bytes: Uint8Array, carry: number[]): Uint8Array {
  const all = carry.length > 0 ? Uint8Array.from([...carry, ...bytes]) : bytes;
  carry.length = 0;
  const even = all.length - (all.length % 2);
  if (even < all.length) carry.push(all[even]!);
  const out = new Uint8Array(even);
  for (let i = 0; i < even; i += 2) [out[i], out[i + 1]] = [all[i + 1]!, all[i]!];
  return out;
}

/** Bytes in (in chunks of any size), whole lines out, without their line ends. */
export class LineDecoder {
  private head: Uint8Array | undefined = new Uint8Array(0);
  private decoder: TextDecoder | undefined;
  private encoding: OffersEncoding = "utf-8";
  private readonly carry: number[] = [];
  private rest = "";

  /** The encoding read (once the first bytes came). */
  get detected(): OffersEncoding {
    return this.encoding;
  }

  push(bytes: Uint8Array): string[] {
    if (this.head !== undefined) {
      // A byte order mark is 2 or 3 bytes: wait for 3 before deciding (unless the file is shorter).
      const head: Uint8Array = Buffer.concat([this.head, bytes]);
      if (head.length < 3) {
        this.head = head;
        return [];
      }
      this.head = undefined;
      return this.start(head);
    }
    return this.lines(this.decode(bytes, true));
  }

  end(): string[] {
    const out = this.head !== undefined && this.head.length > 0 ? this.start(this.head) : [];
    this.head = undefined;
    const text = (this.rest + (this.decoder ? this.decode(new Uint8Array(0), false) : "")).replace(/\r$/, "");
    this.rest = "";
    if (text !== "") out.push(...text.split(/\r\n|\n|\r/));
    return out;
  }

  private start(head: Uint8Array): string[] {
    const { encoding, bom } = sniffEncoding(head);
    this.encoding = encoding;
    this.decoder = new TextDecoder(encoding === "utf-8" ? "utf-8" : "utf-16le", { ignoreBOM: true });
    return this.lines(this.decode(head.subarray(bom), true));
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    const input = this.encoding === "utf-16be" ? swapPairs(bytes, this.carry) : bytes;
    return this.decoder!.decode(input, { stream });
  }

  private lines(text: string): string[] {
    const all = this.rest + text;
    // A CR at a chunk's end may be the first half of CR LF: it waits for the next chunk.
    const cut = all.endsWith("\r") ? all.length - 1 : all.length;
    const lines = all.slice(0, cut).split(/\r\n|\n|\r/);
    this.rest = (lines.pop() ?? "") + all.slice(cut);
    return lines;
  }
}
