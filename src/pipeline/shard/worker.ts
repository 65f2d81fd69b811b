/** A worker thread of generate: maps the batches the main thread sends (see shard.ts, pool.ts). */
import { parentPort, workerData } from "node:worker_threads";
import type { BatchRequest, ShardInit, WorkerFailure } from "./protocol.js";
import { Shard } from "./shard.js";

const port = parentPort;
if (port) {
  let shard: Shard | undefined;
  try {
    shard = new Shard(workerData as ShardInit);
  } catch (error) {
    port.postMessage({ error: `cannot start: ${(error as Error).message}` } satisfies WorkerFailure);
  }
  port.on("message", (request: BatchRequest) => {
    if (!shard) return;
    try {
      const { result, transfer } = shard.batch(request);
      port.postMessage(result, transfer);
    } catch (error) {
      // Mapping and writers fail per channel inside batch(); this is a bug: stop the run.
      port.postMessage({ error: (error as Error).stack ?? String(error) } satisfies WorkerFailure);
      shard = undefined;
    }
  });
}
