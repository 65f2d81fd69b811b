/**
 * Child process of bench/serve.ts: one server per process, on 127.0.0.1:0.
 *
 *   pharmafeed <dir>        startServer over the output directory (access log formatted, then dropped)
 *   baseline <dir> <file>   a bare node:http server piping fs.createReadStream(file) for every request
 *
 * Sends {url} to the parent when listening; on "mark" notes its CPU time, on
 * "cpu" answers {cpuSeconds} used since the mark (the load's cost on this side
 * alone, steadier than wall time on a shared machine); closes on "exit".
 */
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createLogger } from "../src/log.js";
import { startServer } from "../src/serve/server.js";

const [mode, dir, file] = process.argv.slice(2) as [string, string, string | undefined];

async function main(): Promise<() => Promise<void>> {
  if (mode === "pharmafeed") {
    const server = await startServer({
      outputDir: dir,
      channels: [{ name: "big", preset: "generic-ndjson", access: { mode: "open" } }],
      shopName: "bench",
      accessLog: createLogger({ format: "json", write: () => {} }),
      host: "127.0.0.1",
      port: 0,
    });
    process.send!({ url: server.url });
    return () => server.close(1000);
  }
  const path = join(dir, file!);
  const size = statSync(path).size;
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/x-ndjson; charset=utf-8", "Content-Length": size });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

const close = await main();
let mark = process.cpuUsage();
process.on("message", (m) => {
  if (m === "mark") mark = process.cpuUsage();
  if (m === "cpu") {
    const used = process.cpuUsage(mark);
    process.send!({ cpuSeconds: (used.user + used.system) / 1e6 });
  }
  if (m === "exit") void close().then(() => process.exit(0));
});
process.on("disconnect", () => process.exit(0));
