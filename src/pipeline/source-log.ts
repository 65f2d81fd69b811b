/**
 * Log lines about the catalogue connection: every retry with its cause and the
 * budget left, so a nightly log never shows a minute of silence before an
 * error. A refused connection (nothing listens at the address: a wrong base
 * URL, the service down) is said at once, as an error, since retrying rarely
 * helps there.
 */
import type { RetryEvent } from "../catalogue/http/retry.js";
import type { EventListener } from "../catalogue/stream/events.js";
import type { Logger } from "../log.js";

export function logRetry(logger: Logger, retry: RetryEvent): void {
  const fields = {
    operation: retry.operation,
    cause: retry.reason,
    status: retry.status,
    apiCode: retry.apiCode,
    errorCode: retry.errorCode,
    attempt: retry.attempt,
    retriesLeft: retry.retriesLeft,
    nextInMs: retry.delayMs,
    maxWaitLeftS: Math.round(retry.maxWaitLeftMs / 1000),
  };
  if (retry.errorCode === "ECONNREFUSED") logger.error("the catalogue refused the connection (wrong base URL, or the service is down); retrying", fields);
  else logger.warn("catalogue request failed; retrying", fields);
}

/** The client's default listener: retries of the reference reads (categories, brands). */
export function retryLogger(logger: Logger): EventListener {
  return (event) => {
    if (event.type === "retry") logRetry(logger, event.retry);
  };
}
