/**
 * Where a process allocates, by function: load it with `node --import ./bench/alloc-sampler.mjs`
 * before any command. It samples every allocation of the main thread, the objects a
 * collection freed included (V8's sampling heap profiler with includeObjectsCollectedBy*),
 * and at exit writes a .heapprofile (ALLOC_OUT, default alloc.heapprofile) that
 * `node bench/alloc-top.mjs <file> [products]` sums by function. Run generate with
 * `--workers 0` so that mapping is in the sampled thread. Plain JavaScript: loaded by node
 * itself, before tsx or the built CLI.
 *
 *   ALLOC_OUT=/tmp/a.heapprofile node --import ./bench/alloc-sampler.mjs dist/cli.js generate --workers 0 ...
 *   node bench/alloc-top.mjs /tmp/a.heapprofile 15664
 */
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";

const session = new Session();
session.connect();
session.post("HeapProfiler.enable");
session.post("HeapProfiler.startSampling", { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
process.on("exit", () => {
  // The inspector answers synchronously within the same thread, so the file is written before exit.
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (!error) writeFileSync(process.env.ALLOC_OUT ?? "alloc.heapprofile", JSON.stringify(result.profile));
  });
});
