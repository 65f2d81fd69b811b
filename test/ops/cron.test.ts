/**
 * The README's crontab line, run as cron runs it: `sh -c`, an environment of
 * PATH=/usr/bin:/bin only, no terminal (a new session, no stdin), from a copy of
 * the built tree as a clone has it after `npm ci && npm run build` (the sample
 * config, no node_modules/.bin/pharmafeed), against the sandbox.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, ROOT } from "../e2e/cli.js";

/** The entry of the ```cron block, without its five schedule fields. */
function readmeCronCommand(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const block = /```cron\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const entry = block.split("\n").find((line) => line.trim() !== "" && !line.startsWith("#"));
  if (!entry) throw new Error("no crontab entry in README.md");
  return entry.trim().split(/\s+/).slice(5).join(" ");
}

const nodeOnCronPath = ["/usr/bin/node", "/bin/node"].some(existsSync);

let sandbox: SandboxHandle;
let dir: string;
beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ port: 0, products: 400, seed: 1 });
  dir = mkdtempSync(join(tmpdir(), "pharmafeed-cron-"));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the README's crontab line", () => {
  it.skipIf(!nodeOnCronPath)("runs from a clone with PATH=/usr/bin:/bin and no terminal (skipped where node is not in /usr/bin or /bin)", async () => {
    const clone = join(dir, "srv/pharmafeed");
    for (const part of ["dist", "templates", "config", "package.json"]) cpSync(join(ROOT, part), join(clone, part), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"));
    const envFile = join(dir, "env");
    writeFileSync(
      envFile,
      `CATALOGUE_API_BASE_URL=${sandbox.url}\nCATALOGUE_API_KEY_ID=${sandbox.keyId}\nCATALOGUE_API_KEY_SECRET=${sandbox.keySecret}\n`,
      { mode: 0o600 },
    );
    const log = join(dir, "pharmafeed.log");
    const command = readmeCronCommand();
    expect(command).toContain("/srv/pharmafeed");
    const line = command.replaceAll("/srv/pharmafeed", clone).replaceAll("/etc/pharmafeed/env", envFile).replaceAll("/var/log/pharmafeed.log", log);

    const code = await new Promise<number | null>((resolve, reject) => {
      // detached: a new session, so no controlling terminal, as under cron.
      const child = spawn("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "sh", "-c", line], { cwd: "/", detached: true, stdio: "ignore" });
      // Only for a hang: far above what a run takes at load 20, under the test timeout (vitest.config.ts).
      const timer = setTimeout(() => child.kill("SIGKILL"), 550_000);
      child.once("error", reject);
      child.once("close", (status) => {
        clearTimeout(timer);
        resolve(status);
      });
    });
    const written = existsSync(log) ? readFileSync(log, "utf8") : "";
    expect(written).not.toMatch(/not found|No such file/);
    expect(code, written).toBe(0);
    // The log is the run's: JSON log lines on stderr, the summary on stdout, both appended.
    expect(written.split("\n").some((l) => l.startsWith("{") && (JSON.parse(l) as { level?: string }).level === "info")).toBe(true);
    const manifest = JSON.parse(readFileSync(join(clone, "output/manifest.json"), "utf8")) as { channels: { published: unknown }[] };
    expect(manifest.channels.length).toBeGreaterThan(0);
    expect(manifest.channels.every((c) => c.published === true)).toBe(true);
  });
});
