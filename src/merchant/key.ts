/**
 * The service account key file Google hands out (JSON). Only what the token grant
 * needs is read; the private key stays in a closure of auth.ts and is never logged.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { PharmafeedError } from "../errors.js";

export const ServiceAccountKey = z.object({
  type: z.literal("service_account"),
  client_email: z.string().min(1),
  private_key: z.string().includes("PRIVATE KEY"),
  private_key_id: z.string().optional(),
  /** Google's is https://oauth2.googleapis.com/token; tests point it at the fake Merchant API. */
  token_uri: z.url().default("https://oauth2.googleapis.com/token"),
  project_id: z.string().optional(),
});
export type ServiceAccountKey = z.infer<typeof ServiceAccountKey>;

/** Reads and checks a key file; the error names the file and the fields, never their values. */
export async function readServiceAccountKey(file: string): Promise<ServiceAccountKey> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (cause) {
    const why = (cause as NodeJS.ErrnoException).code ?? "not JSON";
    throw new PharmafeedError("MERCHANT_AUTH", `service account key ${file} cannot be read (${why})`, { context: { file } });
  }
  const parsed = ServiceAccountKey.safeParse(json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || "(root)"))].join(", ");
    throw new PharmafeedError("MERCHANT_AUTH", `${file} is not a service account key file: check ${fields}`, { context: { file } });
  }
  return parsed.data;
}
