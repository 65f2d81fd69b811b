import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFetch, type FetchArgs } from "../../src/commands/fetch.js";
import { createCatalogue, startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { isPharmafeedError } from "../../src/errors.js";
import { expectedIds } from "./helpers.js";
import { VALID_MAIN, VALID_TREE, writeTree } from "../config/tree.js";

function capture(): PassThrough & { text(): string } {
  const stream = new PassThrough() as PassThrough & { text(): string };
  const parts: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => parts.push(chunk));
  stream.text = () => Buffer.concat(parts).toString("utf8");
  return stream;
}

let sandbox: SandboxHandle;
let dir: string;
const catalogue = () => createCatalogue({ seed: 1, products: 120, assetBaseUrl: sandbox.url });

beforeAll(async () => {
  sandbox = await startSandbox({ products: 120, faults: { dropAfterLines: 50, corruptLine: 3 } });
  dir = mkdtempSync(join(tmpdir(), "pharmafeed-fetch-"));
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], extraEnv: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...extraEnv } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

function env(): Record<string, string> {
  return { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
}

async function fetchTo(args: Omit<FetchArgs, "contact">) {
  const stdout = capture();
  const stderr = capture();
  const summary = await runFetch({ contact: "tests@pharmafeed.test", ...args }, { stdout, stderr, env: env() });
  return { summary, stdout: stdout.text(), stderr: stderr.text() };
}

describe("pharmafeed fetch", () => {
  it("writes every product as NDJSON to --out, resuming a cut stream, with a summary on stderr", async () => {
    const out = join(dir, "products.ndjson");
    const { summary, stdout, stderr } = await fetchTo({ resource: "products", out });
    const lines = readFileSync(out, "utf8").split("\n");
    expect(lines.pop()).toBe("");
    const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toEqual(expectedIds(catalogue()).filter((_, i) => i !== 3));
    expect(stdout).toBe("");
    expect(summary).toMatchObject({ records: 119, rejected: 1, resumes: 1 });
    expect(stderr).toMatch(/rejected MALFORMED_LINE \(line 4, id M\w+\): not JSON/);
    expect(stderr).toMatch(/^fetch products: 119 records, 1 rejected, \d+ retries, 1 resumes, \d+\.\d\d s$/m);
    expect(stderr).not.toContain("\r");
  });

  it("applies --filter and --sort, writing to stdout", async () => {
    const { stdout } = await fetchTo({ resource: "products", filter: '{"status":"active"}', sort: '{"id":"DESC"}' });
    const ids = stdout.trim().split("\n").map((line) => (JSON.parse(line) as { id: string }).id);
    const c = catalogue();
    // The corrupt line is the 4th line of this result (index 3), whichever product that is.
    expect(ids).toEqual(expectedIds(c, (i) => c.status(i) === "active").reverse().filter((_, k) => k !== 3));
  });

  it("shows count/total progress only when stderr is a terminal", async () => {
    const stderr = Object.assign(capture(), { isTTY: true });
    await runFetch({ resource: "products", contact: "x@example.test", filter: '{"status":"active"}' }, { stdout: capture(), stderr, env: env() });
    expect(stderr.text()).toMatch(/\rproducts: \d+\/\d+/);
    expect(stderr.text()).toContain("\r\x1b[K");
  });

  it("reads query resources page by page", async () => {
    const { stdout, summary } = await fetchTo({ resource: "brands" });
    const brands = stdout.trim().split("\n").map((line) => JSON.parse(line) as { id: number });
    expect(brands.map((brand) => brand.id)).toEqual(catalogue().brands.map((brand) => brand.id));
    expect(summary.records).toBe(brands.length);
  });

  it("refuses a filter that is not JSON (USAGE) or that the spec rejects (QUERY_INVALID)", async () => {
    await expect(fetchTo({ resource: "products", filter: "{status:active}" })).rejects.toMatchObject({ code: "USAGE" });
    await expect(fetchTo({ resource: "products", filter: '{"status":"gone"}' })).rejects.toMatchObject({ code: "QUERY_INVALID" });
  });

  it("says clearly when credentials are missing", async () => {
    const error = await runFetch({ resource: "products", contact: "x@example.test" }, { stdout: capture(), stderr: capture(), env: { CATALOGUE_API_BASE_URL: sandbox.url } }).catch((e: unknown) => e);
    expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toMatch(/CATALOGUE_API_KEY_ID[\s\S]*CATALOGUE_API_KEY_SECRET/);
  });

  it("takes the source from --config: base URL, contact and key references, with no environment at all", async () => {
    const root = await writeTree({
      ...VALID_TREE,
      "config/pharmafeed.json": {
        ...VALID_MAIN,
        source: { baseUrl: sandbox.url, keyId: "${MY_KEY_ID}", keySecret: "${MY_KEY_SECRET}", contact: "config@pharmafeed.test" },
      },
    });
    const stdout = capture();
    const summary = await runFetch(
      { resource: "brands", config: join(root, "config/pharmafeed.json") },
      { stdout, stderr: capture(), env: { MY_KEY_ID: sandbox.keyId, MY_KEY_SECRET: sandbox.keySecret } },
    );
    expect(summary.records).toBe(catalogue().brands.length);
    expect(stdout.text().trim().split("\n")).toHaveLength(catalogue().brands.length);
    // A reference to an unset variable is the config's error, with the file and the path.
    const error = await runFetch({ resource: "brands", config: join(root, "config/pharmafeed.json") }, { stdout: capture(), stderr: capture(), env: {} }).catch((e: unknown) => e);
    expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toMatch(/pharmafeed\.json: source\.keySecret: environment variable MY_KEY_SECRET is not set/);
    rmSync(root, { recursive: true, force: true });
  });

  // An async spawn: the sandbox answering the CLI lives in this process.
  it("runs from the CLI: exit 0 with NDJSON on stdout, exit 4 with the API's code on a bad key", async () => {
    const cli = ["--import", "tsx", join(process.cwd(), "src", "cli.ts"), "fetch", "product-families", "--contact", "tests@pharmafeed.test"];
    const ok = await run(cli, env());
    expect(ok.status).toBe(0);
    expect(ok.stdout.trim().split("\n").length).toBe(catalogue().productFamilies.length);
    expect(ok.stderr).toMatch(/fetch product-families: \d+ records/);
    const bad = await run(cli, { ...env(), CATALOGUE_API_KEY_SECRET: "nope-secret" });
    expect(bad.status).toBe(4);
    expect(bad.stderr).toMatch(/SOURCE_AUTH: .*HTTP 401 authentication\.not_authenticated/);
    expect(bad.stderr).not.toContain("nope-secret");
  });
});
