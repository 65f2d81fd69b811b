/**
 * The systemd units the README shows are the files in deploy/systemd/, share
 * one working directory, alert on failure without masking a tripped gate, and
 * pass `systemd-analyze verify` where it exists.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../e2e/cli.js";

const DIR = join(ROOT, "deploy/systemd");
const UNITS = readdirSync(DIR).sort();
const read = (name: string) => readFileSync(join(DIR, name), "utf8");

/** `Key=value` lines of one unit, by key (a key may repeat). */
function settings(name: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of read(name).split("\n")) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (m) out.set(m[1]!, [...(out.get(m[1]!) ?? []), m[2]!]);
  }
  return out;
}

const systemdAnalyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].find(existsSync);

describe("systemd units (deploy/systemd)", () => {
  it("are the ones the README shows, byte for byte", () => {
    expect(UNITS).toEqual([
      "pharmafeed-alert@.service",
      "pharmafeed-catalogue.service",
      "pharmafeed-catalogue.timer",
      "pharmafeed-delta.service",
      "pharmafeed-delta.timer",
      "pharmafeed-serve.service",
      "pharmafeed-shards.target",
      "pharmafeed-shards.timer",
      "pharmafeed-snapshot.service",
      "pharmafeed-snapshot.timer",
      "pharmafeed.service",
      "pharmafeed.timer",
      "pharmafeed@.service",
    ]);
    // The README shows the nightly run's units; docs/ pages the others (serve, fresh feeds).
    const pages = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => join("docs", f))];
    const readme = pages.map((page) => readFileSync(join(ROOT, page), "utf8")).join("\n");
    for (const name of UNITS) expect(readme, `${name} in README.md or docs/`).toContain(`\`\`\`ini\n${read(name)}\`\`\``);
  });

  it("share one working directory, alert on failure, and do not count a tripped gate (exit 5) as success", () => {
    const run = settings("pharmafeed.service");
    const serve = settings("pharmafeed-serve.service");
    expect(run.get("WorkingDirectory")).toEqual(serve.get("WorkingDirectory"));
    expect(run.get("WorkingDirectory")?.[0]).toMatch(/^\//);
    // The shards' units (docs/shops.md) share it too: the catalogue read leaves the snapshot in its output/.
    const fresh = ["pharmafeed-delta.service", "pharmafeed-snapshot.service", "pharmafeed-catalogue.service", "pharmafeed@.service"].map(settings);
    for (const unit of [run, serve, ...fresh]) {
      expect(unit.get("OnFailure")).toEqual(["pharmafeed-alert@%n.service"]);
      expect((unit.get("SuccessExitStatus") ?? []).join(" ")).not.toMatch(/\b5\b/);
    }
    for (const unit of fresh) expect(unit.get("WorkingDirectory")).toEqual(run.get("WorkingDirectory"));
    expect(run.get("ExecStart")?.[0]).toMatch(/^\/usr\/bin\/node dist\/cli\.js generate /);
    expect(serve.get("ExecStart")?.[0]).toMatch(/^\/usr\/bin\/node dist\/cli\.js serve /);
    expect(settings("pharmafeed-alert@.service").get("ExecStart")?.[0]).toContain("%i failed");
  });

  it.skipIf(systemdAnalyze === undefined)("pass systemd-analyze verify (skipped where systemd-analyze is not installed)", () => {
    const dir = mkdtempSync(join(tmpdir(), "pharmafeed-units-"));
    try {
      for (const name of UNITS) copyFileSync(join(DIR, name), join(dir, name));
      // A template is verified through an instance: the alert as OnFailure= starts it, a shard as docs/shops.md enables it.
      const instances = ["pharmafeed-alert@pharmafeed.service.service", "pharmafeed-alert@pharmafeed@1-4.service.service", "pharmafeed@1-4.service"];
      const files = [...UNITS.filter((n) => !n.endsWith("@.service")), ...instances].map((n) => `./${n}`);
      const result = spawnSync(systemdAnalyze!, ["verify", "--man=no", ...files], { cwd: dir, encoding: "utf8" });
      // Warnings ("Unknown key", "ignoring") leave the exit code at 0: none may name our units.
      const ours = result.stderr.split("\n").filter((line) => line.includes(dir) || line.includes("pharmafeed"));
      expect(ours, result.stderr).toEqual([]);
      expect(result.status, result.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
