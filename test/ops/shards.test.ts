/**
 * The shard arithmetic as the shipped files write it (docs/shops.md): the Kubernetes
 * Indexed Job's command, run by a real `sh` for every pod index, and the `systemctl enable`
 * lines of the docs, run by a real `bash` and unescaped as systemd's %I does, give `--shard`
 * values that pharmafeed accepts and that map every shop exactly once, no shard empty. A shop's
 * shard depends on its name only: adding or removing shops moves no other. Each check is also
 * shown to fail on a deliberately wrong input, so that none of them passes whatever the files say.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { parseShard, selectShops, shardOf } from "../../src/config/shops.js";
import { ROOT } from "../e2e/cli.js";

/** 500 shop names as a main file could hold them (config/schema.ts ShopName). */
const SHOPS = Array.from({ length: 500 }, (_, i) => `${["apotheek", "pharmacie", "farmacia", "apotheke", "shop"][i % 5]}-${i}`);

/**
 * The shops each `--shard` value maps, selected as a run selects them (selectShops, over the
 * whole list): throws unless pharmafeed accepts every value, every shop is mapped by exactly one
 * of them, and none maps no shop.
 */
function everyShopOnce(shards: readonly string[], shops: readonly string[] = SHOPS): string[][] {
  const parsed = shards.map((text) => parseShard(text));
  const taken = parsed.map((shard) => [...selectShops("pharmafeed.json", shops, { shard })]);
  const times = new Map<string, number>();
  taken.forEach((names, k) => {
    if (names.length === 0) throw new Error(`shard ${shards[k]} maps no shop of ${shops.length}`);
    for (const name of names) times.set(name, (times.get(name) ?? 0) + 1);
  });
  const wrong = shops.filter((name) => times.get(name) !== 1);
  if (wrong.length > 0) throw new Error(`${wrong.length} shops not mapped exactly once by ${shards.join(" ")}, e.g. ${wrong[0]} (${times.get(wrong[0]!) ?? 0} times)`);
  return taken;
}

/** "1/4", "2/4", ... "n/n". */
const allOf = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}/${n}`);

const tmp = mkdtempSync(join(tmpdir(), "pharmafeed-shards-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Stubs on PATH: `node` and `systemctl` print the arguments they were given, one a line. */
const STUBS = join(tmp, "bin");
mkdirSync(STUBS);
for (const name of ["node", "systemctl"]) writeFileSync(join(STUBS, name), `#!/bin/sh\nprintf '%s\\n' ${name} "$@"\n`, { mode: 0o755 });

function run(shell: string, script: string, env: Record<string, string> = {}) {
  return spawnSync(shell, ["-c", script], { env: { PATH: `${STUBS}:/usr/bin:/bin`, ...env }, encoding: "utf8" });
}

/** The value after `flag` in an argument list. */
function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

describe("Kubernetes (deploy/k8s/cronjob.yaml)", () => {
  interface Container {
    name: string;
    command?: string[];
    env?: { name: string; value?: string }[];
    volumeMounts?: { name: string; mountPath: string; subPath?: string }[];
  }
  interface CronJob {
    kind: "CronJob";
    metadata: { name: string };
    spec: {
      schedule: string;
      timeZone?: string;
      concurrencyPolicy?: string;
      jobTemplate: {
        spec: {
          completionMode?: string;
          completions?: number;
          parallelism?: number;
          template: { spec: { containers: Container[]; volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[] } };
        };
      };
    };
  }
  interface Claim {
    kind: "PersistentVolumeClaim";
    metadata: { name: string };
    spec: { accessModes: string[] };
  }

  const documents = parseAllDocuments(readFileSync(join(ROOT, "deploy/k8s/cronjob.yaml"), "utf8"));
  const objects = documents.map((d) => {
    if (d.errors.length > 0) throw new Error(`deploy/k8s/cronjob.yaml: ${d.errors.join("; ")}`);
    return d.toJS() as CronJob | Claim | null;
  });
  const cronJob = (name: string): CronJob => {
    const found = objects.find((o): o is CronJob => o?.kind === "CronJob" && o.metadata.name === name);
    if (!found) throw new Error(`no CronJob ${name} in deploy/k8s/cronjob.yaml`);
    return found;
  };
  const catalogue = cronJob("pharmafeed-catalogue");
  const shards = cronJob("pharmafeed-shards");
  const container = (job: CronJob) => job.spec.jobTemplate.spec.template.spec.containers.find((c) => c.name === "pharmafeed")!;
  const pod = container(shards);
  const shardCountVars = (pod.env ?? []).filter((e) => e.name === "SHARD_COUNT");
  const SHARD_COUNT = shardCountVars[0]?.value ?? "";
  /** The pod's shell command, after /bin/sh -c. */
  const script = pod.command?.[2] ?? "";

  /** What each pod of the Indexed Job runs: `--shard` of pod 0 .. completions-1, its command run by sh. */
  function shardsOfPods(command: string, completions: number, shardCount: string): string[] {
    const literal = Object.fromEntries((pod.env ?? []).flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])));
    return Array.from({ length: completions }, (_, index) => {
      const result = run("/bin/sh", command, { ...literal, SHARD_COUNT: shardCount, JOB_COMPLETION_INDEX: String(index) });
      expect(result.status, result.stderr).toBe(0);
      const args = result.stdout.split("\n").filter((line) => line !== "");
      expect(args.slice(0, 3)).toEqual(["node", "dist/cli.js", "generate"]);
      expect(flag(args, "--source")).toBe("snapshot");
      return flag(args, "--shard") ?? "";
    });
  }

  it("runs the catalogue once, and the shards as an Indexed Job of SHARD_COUNT pods at once, an hour later", () => {
    expect(pod.command?.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    const args = container(catalogue).command ?? [];
    expect(flag(args, "--source")).toBe("full");
    expect(args).toContain("--catalogue-only");
    expect(args).not.toContain("--shard");

    const job = shards.spec.jobTemplate.spec;
    expect(job.completionMode).toBe("Indexed");
    // N once as the pod's variable, and completions and parallelism the same number.
    expect(shardCountVars).toHaveLength(1);
    expect(SHARD_COUNT).toMatch(/^[1-9]\d*$/);
    expect(job.completions).toBe(Number(SHARD_COUNT));
    expect(job.parallelism).toBe(Number(SHARD_COUNT));

    for (const c of [catalogue, shards]) expect(c.spec.concurrencyPolicy).toBe("Forbid");
    expect(shards.spec.timeZone).toBe(catalogue.spec.timeZone);
    const [cm, ch, ...cRest] = catalogue.spec.schedule.split(" ");
    const [sm, sh, ...sRest] = shards.spec.schedule.split(" ");
    expect([sm, Number(sh), sRest]).toEqual([cm, Number(ch) + 1, cRest]);

    // The same ReadWriteMany claim at the same path in both: the snapshot goes from one to the other.
    const output = (job: CronJob) => {
      const mount = container(job).volumeMounts?.find((m) => m.mountPath === "/srv/pharmafeed/output");
      const volume = job.spec.jobTemplate.spec.template.spec.volumes?.find((v) => v.name === mount?.name);
      return { claim: volume?.persistentVolumeClaim?.claimName, subPath: mount?.subPath };
    };
    expect(output(shards)).toEqual(output(catalogue));
    const claim = objects.find((o): o is Claim => o?.kind === "PersistentVolumeClaim" && o.metadata.name === output(shards).claim);
    expect(claim?.spec.accessModes).toEqual(["ReadWriteMany"]);
  });

  it("gives every pod, through sh, a shard pharmafeed accepts, and the pods together map every shop exactly once", () => {
    const values = shardsOfPods(script, Number(SHARD_COUNT), SHARD_COUNT);
    expect(values).toEqual(allOf(Number(SHARD_COUNT)));
    const taken = everyShopOnce(values);
    expect(taken.flat().sort()).toEqual([...SHOPS].sort());
    // The same command for any other N, completions changed with it.
    for (const n of [1, 2, 3, 7, 16]) expect(everyShopOnce(shardsOfPods(script, n, String(n)))).toHaveLength(n);
  });

  it("fails on a wrong expression, too few pods, or a pod without its index", () => {
    // The index as the shard: pod 0 asks for --shard 0/N, which pharmafeed refuses.
    const zeroBased = script.replace(" + 1))", "))");
    expect(zeroBased).not.toBe(script);
    expect(() => everyShopOnce(shardsOfPods(zeroBased, Number(SHARD_COUNT), SHARD_COUNT))).toThrow(/--shard 0\//);
    // One more than the index, one too many: the last pod asks for N+1/N.
    const offByTwo = script.replace(" + 1))", " + 2))");
    expect(() => everyShopOnce(shardsOfPods(offByTwo, Number(SHARD_COUNT), SHARD_COUNT))).toThrow(/expected i\/n/);
    // completions one less than SHARD_COUNT: the last shard's shops are mapped by nobody.
    expect(() => everyShopOnce(shardsOfPods(script, Number(SHARD_COUNT) - 1, SHARD_COUNT))).toThrow(/not mapped exactly once/);
    // Not an Indexed Job: the pod fails rather than run as shard 1 (sh's unset variable is 0).
    const noIndex = run("/bin/sh", script, { SHARD_COUNT });
    expect(noIndex.status).not.toBe(0);
    expect(noIndex.stdout).toBe("");
    expect(noIndex.stderr).toMatch(/JOB_COMPLETION_INDEX/);
  });
});

describe("systemd (deploy/systemd/pharmafeed@.service, docs/shops.md)", () => {
  const unit = (name: string) => readFileSync(join(ROOT, "deploy/systemd", name), "utf8");
  const lines = (name: string, key: string) => unit(name).split("\n").filter((l) => l.startsWith(`${key}=`)).map((l) => l.slice(key.length + 1));
  const systemdEscape = ["/usr/bin/systemd-escape", "/bin/systemd-escape"].find(existsSync);

  /**
   * The shard `%I` gives for an instance of pharmafeed@.service: systemd-escape --unescape where
   * it is installed, else the minimal unescape it does for these names (`\xNN` is that byte,
   * every other `-` a `/`; what the next test checks against systemd-escape where it exists).
   */
  function shardOfUnit(unitName: string): string {
    const instance = /^pharmafeed@(.+)\.service$/.exec(unitName)?.[1];
    if (instance === undefined) throw new Error(`${unitName} is no instance of pharmafeed@.service`);
    return systemdEscape ? unescapeWithSystemd(unitName) : unescapeMinimal(instance);
  }
  const unescapeWithSystemd = (unitName: string) => {
    const result = spawnSync(systemdEscape!, ["--unescape", "--instance", unitName], { encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout.trim();
  };
  const unescapeMinimal = (instance: string) => instance.replace(/\\x([0-9a-f]{2})|-/g, (_match, hex: string | undefined) => (hex === undefined ? "/" : String.fromCharCode(parseInt(hex, 16))));

  /** Each ```sh block of the docs that enables shards: the units its `systemctl enable` lines name, as bash expands them. */
  function enabledByDocs(): { block: string; units: string[] }[] {
    const text = readFileSync(join(ROOT, "docs/shops.md"), "utf8");
    const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /systemctl enable pharmafeed@/.test(b));
    return blocks.map((block) => {
      const result = run("/bin/bash", block);
      expect(result.status, result.stderr).toBe(0);
      // The stub prints "systemctl", then its arguments: the units of its `enable` calls.
      const calls = result.stdout.split("systemctl\n").map((call) => call.split("\n").filter((l) => l !== ""));
      const units = calls.filter((args) => args[0] === "enable").flatMap((args) => args.filter((a) => a.startsWith("pharmafeed@")));
      return { block, units };
    });
  }

  it("runs --shard %I from the snapshot after the catalogue read, started by pharmafeed-shards.target an hour after it", () => {
    expect(lines("pharmafeed@.service", "ExecStart")).toEqual(["/usr/bin/node dist/cli.js generate --shard %I --source snapshot --log-format json"]);
    expect(lines("pharmafeed-catalogue.service", "ExecStart")).toEqual(["/usr/bin/node dist/cli.js generate --catalogue-only --source full --log-format json"]);
    expect(lines("pharmafeed@.service", "After")).toContain("pharmafeed-catalogue.service");
    // Ordering only: Wants= would start a second catalogue read for a shard started after the first.
    expect(lines("pharmafeed@.service", "Wants").join(" ")).not.toContain("pharmafeed-catalogue");
    expect(lines("pharmafeed@.service", "Requires")).toEqual([]);
    expect(lines("pharmafeed@.service", "WantedBy")).toEqual(["pharmafeed-shards.target"]);
    expect(lines("pharmafeed-shards.timer", "Unit")).toEqual(["pharmafeed-shards.target"]);
    const hour = (timer: string) => Number(/ (\d\d):\d\d:\d\d$/.exec(lines(timer, "OnCalendar")[0] ?? "")?.[1]);
    expect(hour("pharmafeed-shards.timer")).toBe(hour("pharmafeed-catalogue.timer") + 1);
    // %i would pass the instance as written: pharmafeed refuses "1-4".
    expect(() => parseShard("1-4")).toThrow(/expected i\/n/);
  });

  it("maps every shop exactly once with the instances each recipe of the docs enables", () => {
    const recipes = enabledByDocs();
    expect(recipes.length, "```sh blocks with systemctl enable pharmafeed@... in docs/shops.md").toBeGreaterThanOrEqual(2);
    for (const { block, units } of recipes) {
      const shards = units.map(shardOfUnit);
      expect(shards, block).toEqual(allOf(shards.length));
      expect(everyShopOnce(shards), block).toHaveLength(shards.length);
    }
    // The names are systemd-escape's: pharmafeed@1-4.service is shard 1/4, for any i and n.
    for (const n of [4, 12]) expect(everyShopOnce(allOf(n).map((s) => shardOfUnit(`pharmafeed@${s.replace("/", "-")}.service`)))).toHaveLength(n);
  });

  it("fails when the instances leave a shard out or count from 0", () => {
    expect(() => everyShopOnce(["pharmafeed@1-4.service", "pharmafeed@2-4.service", "pharmafeed@3-4.service"].map(shardOfUnit))).toThrow(/not mapped exactly once/);
    expect(() => everyShopOnce(["pharmafeed@0-4.service", "pharmafeed@1-4.service", "pharmafeed@2-4.service", "pharmafeed@3-4.service"].map(shardOfUnit))).toThrow(/--shard 0\/4/);
    expect(() => everyShopOnce(["1/2", "2/2", "1/3"])).toThrow(/not mapped exactly once/);
  });

  it.skipIf(systemdEscape === undefined)("unescapes as systemd-escape does, and systemd-escape names the shards as the docs do (skipped where systemd-escape is not installed)", () => {
    for (const name of ["pharmafeed@1-4.service", "pharmafeed@12-16.service", "pharmafeed@a\\x2db-c.service"]) {
      expect(unescapeMinimal(/^pharmafeed@(.+)\.service$/.exec(name)![1]!)).toBe(unescapeWithSystemd(name));
    }
    const escaped = spawnSync(systemdEscape!, ["--template=pharmafeed@.service", ...allOf(4)], { encoding: "utf8" });
    expect(escaped.stdout.trim().split(/\s+/)).toEqual(enabledByDocs()[0]!.units);
  });
});

describe("a shop's shard", () => {
  /** Each shop's shard of n, as a run over the whole list selects it. */
  const bySelect = (shops: readonly string[], n: number) => {
    const out = new Map<string, number>();
    for (let index = 1; index <= n; index++) for (const name of selectShops("pharmafeed.json", shops, { shard: { index, count: n } })) out.set(name, index);
    return out;
  };
  /** Throws when adding 100 shops and removing 50 moves a shop that stays. */
  function expectStable(assign: (shops: readonly string[], n: number) => Map<string, number>): void {
    const after = [...SHOPS.filter((_, i) => i % 10 !== 3), ...Array.from({ length: 100 }, (_, i) => `new-shop-${i}`)];
    for (const n of [2, 3, 4, 7, 16]) {
      const [was, is] = [assign(SHOPS, n), assign(after, n)];
      const moved = after.filter((name) => was.has(name) && was.get(name) !== is.get(name));
      if (moved.length > 0) throw new Error(`${moved.length} shops moved to another of ${n} shards, e.g. ${moved[0]}`);
    }
  }

  it("is shardOf of its name, whatever the other shops", () => {
    for (const n of [1, 4, 7]) for (const [name, shard] of bySelect(SHOPS, n)) expect(shard).toBe(shardOf(name, n));
    expect(() => expectStable(bySelect)).not.toThrow();
  });

  it("is shown to move by the same check when it depends on the other shops (round robin over the sorted names)", () => {
    const roundRobin = (shops: readonly string[], n: number) => new Map([...shops].sort().map((name, i) => [name, (i % n) + 1]));
    expect(() => expectStable(roundRobin)).toThrow(/moved/);
  });
});
