/**
 * A child process that writes a snapshot without end (for the kill -9 test):
 * says "writing" on stdout once blocks are in the temporary file, then goes on
 * until killed.
 */
import { SnapshotWriter } from "../../src/snapshot/store.js";

const file = process.argv[2] as string;
const writer = await SnapshotWriter.create(file, { syncedAt: new Date().toISOString(), filter: "{}", sorting: "{}", via: "full" });
writer.setReference({ categories: [], brands: [] });
const line = Buffer.from(`{"meta":{"total":1,"index":0},"result":{"id":"NEW","text":"${"x".repeat(2000)}"}}`);
let n = 0;
for (;;) {
  for (let i = 0; i < 200; i++) await writer.add(line);
  if (++n === 5) process.stdout.write("writing\n");
  await new Promise((resolve) => setImmediate(resolve));
}
