/**
 * destinations in the config files: the main file's list is every channel's
 * default, a channel's own list replaces it; keys are strict (a typo names the
 * file and path); secrets come from the environment, and only validate
 * --no-credentials may go without them.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { isPharmafeedError } from "../../src/errors.js";
import { TEST_ENV, VALID_MAIN, VALID_TREE, writeTree, type Tree } from "../config/tree.js";

const roots: string[] = [];
afterAll(() => Promise.all(roots.map((r) => rm(r, { recursive: true, force: true }))));

const SFTP = { kind: "sftp", name: "merchant-center", host: "partnerupload.google.com", port: 19321, user: "mc-1", password: "${SFTP_PASSWORD}" };
const S3 = { kind: "s3", name: "gcs", endpoint: "https://storage.googleapis.com", bucket: "feeds", accessKeyId: "${GCS_ID}", secretAccessKey: "${GCS_SECRET}" };

function tree(main: Record<string, unknown>, google: Record<string, unknown> = {}): Tree {
  return {
    ...VALID_TREE,
    "config/pharmafeed.json": { ...VALID_MAIN, ...main },
    "config/channels/google-fr.json": { ...(VALID_TREE["config/channels/google-fr.json"] as object), ...google },
  };
}

async function load(t: Tree, env: Record<string, string>, options: { checkCredentials?: boolean } = {}) {
  const root = await writeTree(t);
  roots.push(root);
  return loadConfig(join(root, "config/pharmafeed.json"), { env: { ...TEST_ENV, ...env }, ...options });
}

async function refusal(t: Tree, env: Record<string, string> = {}, options: { checkCredentials?: boolean } = {}): Promise<string> {
  try {
    await load(t, env, options);
  } catch (error) {
    if (isPharmafeedError(error, "CONFIG_INVALID")) return error.message;
    throw error;
  }
  throw new Error("the config was accepted");
}

describe("destinations in the config", () => {
  it("the main file's list is the default; a channel's own list replaces it; secrets substituted", async () => {
    const config = await load(tree({ destinations: [SFTP] }, { destinations: [S3] }), { SFTP_PASSWORD: "pw-1", GCS_ID: "id-1", GCS_SECRET: "secret-1" });
    const [google, meta] = config.channels;
    expect(google!.destinations).toEqual([expect.objectContaining({ kind: "s3", name: "gcs", accessKeyId: "id-1", secretAccessKey: "secret-1", prefix: "", forcePathStyle: false, retries: 3, atomic: true })]);
    expect(meta!.destinations).toEqual([expect.objectContaining({ kind: "sftp", name: "merchant-center", port: 19321, password: "pw-1", dir: "." })]);
    const none = await load(tree({ destinations: [SFTP] }, { destinations: [] }), { SFTP_PASSWORD: "pw-1" });
    expect(none.channels[0]!.destinations).toEqual([]);
  });

  it("a typo, an unknown kind and a name used twice are refused with the file and path", async () => {
    const env = { SFTP_PASSWORD: "p", GCS_ID: "i", GCS_SECRET: "s" };
    const message = await refusal(tree({}, { destinations: [{ ...S3, bukket: "x" }, { ...SFTP, kind: "webdav" }] }), env);
    expect(message).toMatch(/google-fr\.json: destinations\[0\]: unknown key "bukket"/);
    expect(message).toMatch(/google-fr\.json: destinations\[1\]\.kind/);
    expect(await refusal(tree({}, { destinations: [SFTP, SFTP] }), env)).toMatch(/google-fr\.json: destinations\[1\]\.name: destination name "merchant-center" is used twice/);
  });

  it("an SFTP destination needs a password or a key", async () => {
    const { password: _, ...keyless } = SFTP;
    expect(await refusal(tree({ destinations: [keyless] }))).toMatch(/pharmafeed\.json: destinations\[0\]\.password: a password or a privateKey is needed/);
  });

  it("an unset secret is refused, except by validate --no-credentials", async () => {
    expect(await refusal(tree({ destinations: [SFTP] }))).toMatch(/pharmafeed\.json: destinations\[0\]\.password: environment variable SFTP_PASSWORD is not set/);
    const config = await load(tree({ destinations: [SFTP] }), {}, { checkCredentials: false });
    expect(config.channels[0]!.destinations[0]).toMatchObject({ name: "merchant-center" });
  });

  it("a secret written into the file as it is is refused, with the fix; the value is never echoed", async () => {
    const message = await refusal(tree({ destinations: [{ ...SFTP, password: "hunter2-plain" }] }));
    expect(message).toMatch(/pharmafeed\.json: destinations\[0\]\.password: written in the file as it is: put it in an environment variable and write "\$\{VARIABLE\}" here/);
    expect(message).not.toContain("hunter2-plain");
  });

  it("a missing or mistyped value is said in words with its JSON path, not in zod's terms", async () => {
    const { host: _, ...hostless } = SFTP;
    const message = await refusal(tree({ destinations: [{ ...hostless, port: "22" }] }), { SFTP_PASSWORD: "p" });
    expect(message).toMatch(/destinations\[0\]\.host: missing, a text is needed/);
    expect(message).toMatch(/destinations\[0\]\.port: a number is needed, got "22"/);
    expect(message).not.toMatch(/received|expected string/);
  });

  it("an SFTP mode is octal, 0644 by default", async () => {
    const config = await load(tree({ destinations: [SFTP] }), { SFTP_PASSWORD: "p" });
    expect(config.channels[0]!.destinations[0]).toMatchObject({ mode: "0644" });
    expect(await refusal(tree({ destinations: [{ ...SFTP, mode: "rw-r--r--" }] }), { SFTP_PASSWORD: "p" })).toMatch(/destinations\[0\]\.mode: an octal mode such as "0644"/);
  });
});
