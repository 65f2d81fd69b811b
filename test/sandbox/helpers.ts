/** Shared helpers of the sandbox tests: start a sandbox, call it over real HTTP. */
import { startSandbox, type SandboxHandle, type SandboxOptionsInput } from "../../src/sandbox/index.js";

export const UA = "pharmafeed-tests/1.0 (tests@example.com)";

export interface Api {
  sandbox: SandboxHandle;
  post(path: string, body: unknown, init?: { auth?: string | null; headers?: Record<string, string> }): Promise<Response>;
  json(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A stream call: status and parsed lines. */
  lines(path: string, body: unknown): Promise<{ status: number; lines: { meta: { total: number; index: number }; result: Record<string, unknown> }[]; text: string }>;
}

export function basic(id: string, secret: string): string {
  return "Basic " + Buffer.from(`${id}:${secret}`).toString("base64");
}

export async function open(options: SandboxOptionsInput = {}): Promise<Api> {
  const sandbox = await startSandbox({ products: 300, rateLimit: 100_000, ...options });
  const auth = basic(sandbox.keyId, sandbox.keySecret);
  const post: Api["post"] = (path, body, init = {}) => {
    const headers: Record<string, string> = { "content-type": "application/json", "user-agent": UA, ...init.headers };
    const a = init.auth === undefined ? auth : init.auth;
    if (a !== null) headers.authorization = a;
    return fetch(sandbox.url + path, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  };
  return {
    sandbox,
    post,
    async json(path, body) {
      const res = await post(path, body);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async lines(path, body) {
      const res = await post(path, body);
      const text = await res.text();
      const lines = text === "" ? [] : text.trimEnd().split("\n").map((l) => JSON.parse(l) as never);
      return { status: res.status, lines, text };
    },
  };
}

/** A query body over every product. */
export const ALL = { filter: {}, sorting: { id: "ASC" } } as const;
