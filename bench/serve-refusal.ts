/**
 * Does a refusal tell whether a protected file exists (issue 15, item 8)? A wrong password
 * on a served Basic feed against the same on a name that is not served: median answer time
 * of each, per round of 200 requests each, over 30 rounds, and how many rounds the served
 * one was slower (about 15 of 30 when the time tells nothing). Before the fix: 30 of 30
 * (219.7 us against 203.8 us on the shared dev machine).
 *
 *   npx tsx bench/serve-refusal.ts
 */
import { Agent, request } from "node:http";
import { basic, makeFixture, SECRETS, serve } from "../test/serve/helpers.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const PER_ROUND = 200;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  const fx = await makeFixture({ products: 30 });
  const server = await serve(fx.config);
  const url = new URL(server.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: basic(SECRETS.FEED_USER, "wrong password here") };
  const once = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = request({ host: url.hostname, port: url.port, path, agent, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(Number(process.hrtime.bigint() - started) / 1000));
      });
      req.on("error", reject);
      req.end();
    });
  const rounds: [number, number][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const served: number[] = [];
    const missing: number[] = [];
    for (let i = 0; i < PER_ROUND; i++) {
      served.push(await once("/feeds/meta-fr.csv"));
      missing.push(await once("/feeds/meta-fr-gone.csv"));
    }
    rounds.push([median(served), median(missing)]);
  }
  const slower = rounds.filter(([a, b]) => a > b).length;
  console.log(`refusal, median us: served file ${median(rounds.map((r) => r[0])).toFixed(1)}, missing file ${median(rounds.map((r) => r[1])).toFixed(1)}; served slower in ${slower} of ${ROUNDS} rounds`);
  agent.destroy();
  await server.close(100);
  await fx.close();
}

await main();
