/**
 * What the main thread and generate's worker threads say to each other. Plain
 * data only (structured clone); stream lines and rows travel as UTF-8 bytes,
 * transferred: the main thread never decodes a product line, and neither side
 * keeps strings alive across a batch for the garbage collector to copy.
 */
import type { Rejection } from "../../catalogue/stream/line.js";
import type { ContextInput } from "../../mapping/context.js";
import type { ChannelPart } from "../channel-run.js";
import type { MapperSpec } from "../channel-mapper.js";
import type { IndexProduct } from "../../explain/entry.js";

/** A channel as a worker sees it. `imagesMaxAdditional`: set for a channel with images.process (mapped only, rendered by the main thread). */
export interface ShardChannel extends MapperSpec {
  imagesMaxAdditional?: number;
}

/** The channels of one shop and its mapping context (its offers): a run of many shops has one each (docs/shops.md). */
export interface ShardTarget {
  channels: ShardChannel[];
  context: ContextInput;
  /** Send what the shop's explain index needs (products and per-channel outcomes). */
  explain?: boolean;
}

/** workerData of every worker: every shop's channels and mapping context; each line is parsed once for all. */
export interface ShardInit {
  targets: ShardTarget[];
}

/** A stream line of a batch: where its bytes end in the batch's `bytes`, its line number in the body, its meta.index, its place among the source's lines. */
export interface LineRef {
  end: number;
  line: number;
  index: number;
  ordinal: number;
}

export interface BatchRequest {
  seq: number;
  /** The batch's lines, one after the other, without their newlines. */
  bytes: Uint8Array;
  lines: LineRef[];
}

export interface BatchResult {
  seq: number;
  /** Valid products of the batch. */
  products: number;
  /** Lines of the batch refused (not JSON, not a product). */
  rejections: Rejection[];
  /** One per channel, target after target, each target's channels in order. */
  parts: ChannelPart[];
  /** Per target with `explain`: the batch's valid products, and until when each one's rows stay right (mapping/clock.ts). */
  index?: ({ products: IndexProduct[]; until: number[] } | undefined)[];
  /** Per valid product: its line among the source's lines. */
  ordinals?: number[];
}

/** A worker that could not start or handle a batch says so once, then stops. */
export interface WorkerFailure {
  error: string;
}
