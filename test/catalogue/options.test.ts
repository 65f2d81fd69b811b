import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { parseSourceOptions, resolveSourceOptions } from "../../src/catalogue/options.js";
import { Secret } from "../../src/catalogue/secret.js";
import { isPharmafeedError } from "../../src/errors.js";

const SECRET = "s3cr3t-value-never-printed";
const config = { baseUrl: "https://api.example.test/", keyId: "key-1", keySecret: SECRET, contact: "ops@example.test" };

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("SourceOptions", () => {
  it("applies defaults and normalises the base URL", () => {
    const options = parseSourceOptions(config);
    expect(options.baseUrl).toBe("https://api.example.test");
    expect(options.rateLimit).toBe(100);
    expect(options.rateWindowMs).toBe(60_000);
    expect(options.timeouts).toEqual({ connectMs: 10_000, headersMs: 60_000, bodyIdleMs: 60_000 });
    expect(options.retry).toMatchObject({ maxRetries: 6, jitter: "full" });
    expect(options.keySecret.reveal()).toBe(SECRET);
  });

  it("keeps a path prefix but refuses /v4 in the base URL", () => {
    expect(parseSourceOptions({ ...config, baseUrl: "https://proxy.test/medipim/" }).baseUrl).toBe("https://proxy.test/medipim");
    const error = thrown(() => parseSourceOptions({ ...config, baseUrl: "https://api.example.test/v4" }));
    expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toMatch(/baseUrl \(or CATALOGUE_API_BASE_URL\): give the base URL without \/v4/);
  });

  it("refuses unknown keys (a typo is an error)", () => {
    const error = thrown(() => parseSourceOptions({ ...config, ratelimit: 5 }));
    expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
  });

  it("never shows the secret when printed, inspected or serialised", () => {
    const options = parseSourceOptions(config);
    const shown = [inspect(options, { depth: 10 }), JSON.stringify(options), String(options.keySecret), `${options.keySecret}`];
    for (const text of shown) expect(text).not.toContain(SECRET);
    expect(inspect(new Secret("x"))).toBe("[redacted]");
  });

  it("never echoes the secret in a validation error", () => {
    const error = thrown(() => parseSourceOptions({ ...config, keyId: "", contact: 7 }));
    expect((error as Error).message).not.toContain(SECRET);
    expect((error as Error).message).toMatch(/keyId \(or CATALOGUE_API_KEY_ID\)/);
  });
});

describe("resolveSourceOptions", () => {
  it("lets the environment win over config", () => {
    const options = resolveSourceOptions(config, {
      CATALOGUE_API_BASE_URL: "http://127.0.0.1:9999",
      CATALOGUE_API_KEY_ID: "env-key",
      CATALOGUE_API_KEY_SECRET: "env-secret",
      CATALOGUE_API_CONTACT: "env@example.test",
    });
    expect(options.baseUrl).toBe("http://127.0.0.1:9999");
    expect(options.keyId).toBe("env-key");
    expect(options.keySecret.reveal()).toBe("env-secret");
    expect(options.contact).toBe("env@example.test");
  });

  it("ignores empty variables and keeps the config", () => {
    const options = resolveSourceOptions(config, { CATALOGUE_API_KEY_ID: "  " });
    expect(options.keyId).toBe("key-1");
  });

  it("fills what config lacks from the environment", () => {
    const options = resolveSourceOptions(
      { contact: "ops@example.test" },
      { CATALOGUE_API_BASE_URL: "http://localhost:1", CATALOGUE_API_KEY_ID: "k", CATALOGUE_API_KEY_SECRET: "s" },
    );
    expect(options.keyId).toBe("k");
  });

  it("says which credentials are missing, naming the variables", () => {
    const error = thrown(() => resolveSourceOptions({ baseUrl: "http://localhost:1", contact: "x" }, {}));
    expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toContain("CATALOGUE_API_KEY_ID");
    expect((error as Error).message).toMatch(/keySecret \(or CATALOGUE_API_KEY_SECRET\): required/);
  });
});
