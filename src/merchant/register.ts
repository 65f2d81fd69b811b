/**
 * `pharmafeed merchant register --developer-email <you>`: the one-time developer
 * registration (accounts.developerRegistration.registerGcp) of the service account's
 * Google Cloud project with each Merchant Center account of the config. It signs with the
 * service account's own key, as Google requires: "The caller account must be authenticated
 * and must not impersonate another account at registration time", and the caller must have
 * ADMIN access to the account (Merchant API guide, "Register as a developer").
 */
import { PharmafeedError } from "../errors.js";
import { MerchantClient, type MerchantClientOptions } from "./client.js";
import { limitsOf } from "./limits.js";
import type { MerchantChannel } from "./settings.js";

/** One line per account registered; throws (MERCHANT_AUTH, MERCHANT_HTTP) at the first refusal. */
export async function registerAccounts(channels: readonly MerchantChannel[], developerEmail: string, client: Partial<MerchantClientOptions> = {}): Promise<string[]> {
  // Google: "not a service account as service accounts can't receive emails".
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(developerEmail) || /\.gserviceaccount\.com$/i.test(developerEmail)) {
    throw new PharmafeedError("USAGE", `--developer-email must be a person's Google account e-mail (Google writes to it about the API), not a service account; got "${developerEmail}"`);
  }
  const lines: string[] = [];
  const done = new Set<string>();
  for (const c of channels) {
    const key = `${c.settings.accountId}|${c.keyFile}|${c.settings.apiUrl}`;
    if (done.has(key)) continue;
    done.add(key);
    if (c.keyFile === "") throw new PharmafeedError("MERCHANT_AUTH", `${c.channel}: no service account key: merchant.credentials is empty (is GOOGLE_APPLICATION_CREDENTIALS set?)`);
    const merchant = await MerchantClient.open({ accountId: c.settings.accountId, keyFile: c.keyFile, apiUrl: c.settings.apiUrl, limits: limitsOf(c.settings), ...client });
    try {
      await merchant.registerGcp(developerEmail);
      lines.push(`Merchant Center ${c.settings.accountId}: the Google Cloud project of ${merchant.tokens.clientEmail} is registered (developer contact ${developerEmail}); Google asks to wait about 5 minutes before the first call`);
    } finally {
      await merchant.close();
    }
  }
  return lines;
}
