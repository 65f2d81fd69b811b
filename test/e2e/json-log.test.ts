/**
 * `generate --log-format json` as a log collector reads it: every line of the
 * output is a JSON object (no summary table), the run ends with one summary
 * event (per channel items, excluded, published; the exit code), every retry
 * is a line with its cause, and a refused connection is said at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv, type CliResult } from "./cli.js";
import { removeTemporaries, writeConfig, type ChannelFileJson, type E2eConfig } from "./config.js";
import { readManifestJson } from "./feeds.js";

const link = { template: "https://shop.example/p/{{id}}" };
const CHANNELS: ChannelFileJson[] = [
  { name: "google-fr", preset: "google", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
  { name: "idealo-fr", preset: "idealo", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
];

type Line = Record<string, unknown> & { level: string; msg: string };
interface SummaryChannel {
  name: string;
  items: number;
  excluded: number;
  published: boolean;
  reason?: string;
}

let sandbox: SandboxHandle;
beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: 7, products: 200, rateLimit: 100_000 });
});
afterAll(async () => {
  killAll();
  await sandbox?.close();
  await removeTemporaries();
});

/** Every line of stderr parsed; fails on the first line that is not a JSON object. */
function lines(result: CliResult): Line[] {
  expect(result.stdout, "nothing on stdout: the summary is the last log event").toBe("");
  return result.stderr
    .split("\n")
    .filter((l) => l !== "")
    .map((l, i) => {
      let parsed: unknown;
      expect(() => (parsed = JSON.parse(l)), `line ${i + 1} is not JSON: ${l}`).not.toThrow();
      expect(parsed, `line ${i + 1}`).toMatchObject({ time: expect.any(String) as unknown, level: expect.any(String) as unknown, msg: expect.any(String) as unknown });
      return parsed as Line;
    });
}

function generate(config: E2eConfig, env: Record<string, string> = sandboxEnv(sandbox)): Promise<CliResult> {
  return runCli(["generate", "--config", config.configFile, "--log-format", "json"], { env });
}

describe("generate --log-format json", () => {
  it("writes only JSON lines and ends with one summary event that matches the manifest (exit 0)", async () => {
    const config = await writeConfig({ channels: CHANNELS });
    const result = await generate(config);
    expect(result.code, result.stderr).toBe(0);
    const log = lines(result);
    const summaries = log.filter((l) => l.msg === "run summary");
    expect(summaries).toHaveLength(1);
    const last = log.at(-1)!;
    expect(last).toMatchObject({ msg: "run summary", level: "info", event: "run-summary", status: "ok", exitCode: 0 });
    const manifest = await readManifestJson(config.outputDir);
    expect(last["channels"] as SummaryChannel[]).toEqual(
      manifest.channels.map((c) => expect.objectContaining({ name: c.name, items: c.items, excluded: Object.values(c.excluded).reduce((a, b) => a + b, 0), published: true }) as unknown),
    );
  });

  it("after a tripped gate: the summary event is the last line, with the channel's reason and exit code 5", async () => {
    const config = await writeConfig({ channels: CHANNELS });
    expect((await generate(config)).code).toBe(0);
    const small = await startSandbox({ seed: 7, products: 40, rateLimit: 100_000 });
    try {
      const result = await generate(config, sandboxEnv(small));
      expect(result.code, result.stderr).toBe(5);
      const last = lines(result).at(-1)!;
      expect(last).toMatchObject({ msg: "run summary", level: "error", status: "failed", exitCode: 5, error: { code: "GATE_TRIPPED" } });
      for (const c of last["channels"] as SummaryChannel[]) {
        expect(c.published).toBe(false);
        expect(c.reason).toMatch(/^gate: items dropped/);
      }
    } finally {
      await small.close();
    }
  });

  it("says a refused connection at once, logs every retry with its cause and the budget left, and ends with the summary (exit 4)", async () => {
    const dead = await startSandbox({ seed: 1, products: 10 });
    const env = sandboxEnv(dead);
    await dead.close();
    const config = await writeConfig({ channels: CHANNELS, source: { retry: { maxRetries: 2, baseMs: 50, maxMs: 50, jitter: "none" } } });
    const result = await generate(config, env);
    expect(result.code, result.stderr).toBe(4);
    const log = lines(result);
    const retries = log.filter((l) => "retriesLeft" in l);
    expect(retries.length).toBeGreaterThan(0);
    // The first problem line of the run is the refusal, before any wait.
    const firstProblem = log.find((l) => l.level !== "info")!;
    expect(firstProblem.msg).toMatch(/refused the connection/);
    expect(firstProblem).toMatchObject({ errorCode: "ECONNREFUSED", attempt: 1, retriesLeft: 1, nextInMs: 50 });
    expect(String(firstProblem["cause"])).toContain("ECONNREFUSED");
    for (const r of retries) expect(r["cause"], JSON.stringify(r)).toEqual(expect.stringContaining("ECONNREFUSED"));
    const last = log.at(-1)!;
    expect(last).toMatchObject({ msg: "run summary", status: "failed", exitCode: 4, error: { code: "SOURCE_NETWORK" } });
    expect((last["channels"] as SummaryChannel[]).map((c) => [c.name, c.published])).toEqual([
      ["google-fr", false],
      ["idealo-fr", false],
    ]);
  });
});
