/** Sandbox + client plumbing shared by the catalogue integration tests. */
import { createCatalogueClient, type CatalogueClient, type ClientExtras } from "../../src/catalogue/client.js";
import type { SourceOptionsInput } from "../../src/catalogue/options.js";
import { createCatalogue, startSandbox, type Catalogue, type SandboxHandle, type SandboxOptionsInput } from "../../src/sandbox/index.js";

export const CONTACT = "tests@pharmafeed.test";

/** Short backoff so that retry tests take milliseconds. */
export const FAST_RETRY = { maxRetries: 6, baseMs: 5, maxMs: 40, jitter: "full" } as const;

export interface World {
  sandbox: SandboxHandle;
  client: CatalogueClient;
  /** The same generated catalogue, for independent expectations. */
  catalogue: Catalogue;
  close(): Promise<void>;
}

export async function world(
  sandboxOptions: SandboxOptionsInput = {},
  clientOptions: Partial<SourceOptionsInput> = {},
  extras?: ClientExtras,
): Promise<World> {
  const sandbox = await startSandbox({ products: 200, ...sandboxOptions });
  const client = createCatalogueClient(
    {
      baseUrl: sandbox.url,
      keyId: sandbox.keyId,
      keySecret: sandbox.keySecret,
      contact: CONTACT,
      retry: FAST_RETRY,
      ...clientOptions,
    },
    extras,
  );
  const catalogue = createCatalogue({ seed: sandboxOptions.seed ?? 1, products: sandboxOptions.products ?? 200, assetBaseUrl: sandbox.url });
  return {
    sandbox,
    client,
    catalogue,
    async close() {
      await client.close();
      await sandbox.close();
    },
  };
}

/** Ids of the products whose index passes `keep`, in index order (= id ASC). */
export function expectedIds(catalogue: Catalogue, keep: (i: number) => boolean = () => true): string[] {
  const ids: string[] = [];
  for (let i = 0; i < catalogue.total; i++) if (keep(i)) ids.push(catalogue.id(i));
  return ids;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** The wire JSON of product i as a plain value (symbols and undefined dropped). */
export function wire(catalogue: Catalogue, i: number): unknown {
  return JSON.parse(JSON.stringify(catalogue.product(i)));
}
