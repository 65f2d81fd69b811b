/**
 * Fault injection state of one sandbox (see FaultOptions in ../options.ts for
 * the meaning of each flag). Counters are per server, so each test starts clean.
 */
import type { FaultOptions } from "../options.js";

/** What to do to one stream response. */
export interface StreamFaults {
  /** Destroy the connection after this many lines. */
  dropAfter?: number;
  /** Pause `stallMs` after this many lines. */
  stallAfter?: number;
  stallMs: number;
  lineDelayMs: number;
  /** meta.index of the line to send as broken JSON. */
  corruptIndex?: number;
  chunkBytes?: number;
  /** Stop after this many complete lines, in the shape of `cutShape` (see FaultOptions). */
  cutAt?: number;
  cutShape: FaultOptions["cutShape"];
  noFinalNewline: boolean;
  /** Added to meta.total in every line. */
  totalOffset: number;
  repeatIdEvery?: number;
}

export class FaultState {
  private requests = 0;
  private streams = 0;

  constructor(private readonly options: FaultOptions) {}

  /**
   * Called once per request, in arrival order. The first failFirst requests get
   * a 5xx, the next tooManyFirst a 429 (the two storms follow each other).
   */
  onRequest(): { fail: number } | { tooMany: true } | undefined {
    this.requests++;
    const { failFirst, failStatus, tooManyFirst } = this.options;
    if (this.requests <= failFirst) return { fail: failStatus };
    if (this.requests <= failFirst + tooManyFirst) return { tooMany: true };
    return undefined;
  }

  /** Called when a stream response starts (status 200); the i-th gets its faults. */
  nextStream(): StreamFaults {
    this.streams++;
    const o = this.options;
    const faults: StreamFaults = { stallMs: o.stallMs, lineDelayMs: o.lineDelayMs, cutShape: o.cutShape, noFinalNewline: o.noFinalNewline, totalOffset: o.totalOffset };
    if (o.dropAfterLines !== undefined && this.streams <= o.dropTimes) faults.dropAfter = this.streams * o.dropAfterLines;
    if (o.stallAfterLines !== undefined && this.streams === 1 && o.stallMs > 0) faults.stallAfter = o.stallAfterLines;
    if (o.corruptLine !== undefined) faults.corruptIndex = o.corruptLine;
    if (o.chunkBytes !== undefined) faults.chunkBytes = o.chunkBytes;
    if (o.repeatIdEvery !== undefined) faults.repeatIdEvery = o.repeatIdEvery;
    if (o.cutAfterLines !== undefined && this.streams <= o.cutTimes) faults.cutAt = this.streams * o.cutAfterLines;
    return faults;
  }
}
