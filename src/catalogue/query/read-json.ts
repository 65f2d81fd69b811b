/** A query or create call: one request (with retries) whose whole JSON body is read. */
import type { Transport } from "../http/transport.js";
import { Failure } from "../http/failure.js";
import { withRetries, type RetryBudget } from "../http/retry.js";

/** Resolves with the parsed body (undefined for an empty one). Bad JSON is SOURCE_PARSE, not retried. */
export async function postJson(
  transport: Transport,
  endpoint: string,
  body: unknown,
  budget: RetryBudget,
  signal: AbortSignal | undefined,
  count: () => void,
): Promise<unknown> {
  return withRetries(
    budget,
    async () => {
      count();
      const response = await transport.send(endpoint, body, signal);
      // A cut while reading is a network failure, retried like any other.
      const text = await response.body.text();
      if (text.trim() === "") return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new Failure("parse", `HTTP ${response.statusCode} with a body that is not JSON (${(error as Error).message})`);
      }
    },
    signal,
  );
}
