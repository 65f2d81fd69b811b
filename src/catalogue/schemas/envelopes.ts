/**
 * What wraps the records: query responses, stream lines and error bodies.
 * Records themselves are validated one by one, so that one bad record is a
 * counted rejection rather than a failed page.
 */
import { z } from "zod";

export const PageMeta = z.looseObject({
  no: z.number().int(),
  /** Offset of the page's first item in the whole result set. */
  offset: z.number().int().nullish(),
  size: z.number().int(),
});

/** `{meta: {total, page?}, results}`; `meta.page` only when the request had `page`. */
export const QueryResponse = z.looseObject({
  meta: z.looseObject({ total: z.number().int().min(0), page: PageMeta.nullish() }),
  results: z.array(z.unknown()),
});
export type QueryResponse = z.infer<typeof QueryResponse>;

/** One line of products/stream or media/stream: `{meta: {total, index}, result}`. */
export const StreamLine = z.looseObject({
  meta: z.looseObject({ total: z.number().int().min(0), index: z.number().int().min(0) }),
  result: z.unknown(),
});
export type StreamLine = z.infer<typeof StreamLine>;

/** `{error: {status, code, message, violations?}}`; a 422 adds `violations`. */
export const ErrorBody = z.looseObject({
  error: z.looseObject({
    status: z.number().int().nullish(),
    code: z.string(),
    message: z.string().nullish(),
    violations: z.array(z.unknown()).nullish(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
