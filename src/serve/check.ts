/**
 * What `serve` needs of the config before it listens: the secrets it compares
 * against are set and not guessable. Checked only by `serve` (loadConfig with
 * `serve: true`): the nightly `generate` must not fail for a serve password.
 */
import type { AccessConfig, MainConfig } from "../config/schema.js";

/** Long enough that guessing over HTTP is hopeless; the alphabet needs no URL encoding. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{24,256}$/;
export const MIN_PASSWORD = 12;

interface Checked {
  file: string;
  serve: MainConfig["serve"];
  channels: readonly { configFile: string; access: AccessConfig }[];
}

function basicProblems(user: string, password: string): [string, string][] {
  const out: [string, string][] = [];
  // RFC 7617: the user-id cannot contain a colon (the header could not be split back).
  if (user === "" || user.includes(":")) out.push(["user", "required, without ':'"]);
  if (password.length < MIN_PASSWORD) out.push(["password", `at least ${MIN_PASSWORD} characters (use an environment reference)`]);
  return out;
}

/** A status page's credentials (a shop's, or the operator's of many shops): one line per problem. */
export function statusProblems(file: string, status: { user: string; password: string } | undefined): string[] {
  return status ? basicProblems(status.user, status.password).map(([key, message]) => `${file}: serve.status.${key}: ${message}`) : [];
}

/** One line per problem, `file: path: message`, like the rest of the config checks. */
export function serveConfigProblems({ file, serve, channels }: Checked): string[] {
  const lines = statusProblems(file, serve.status);
  for (const { configFile, access } of channels) {
    if (access.mode === "basic") {
      for (const [key, message] of basicProblems(access.user, access.password)) lines.push(`${configFile}: access.${key}: ${message}`);
    }
    if (access.mode === "token" && !TOKEN_PATTERN.test(access.token)) {
      lines.push(`${configFile}: access.token: 24 to 256 letters, digits, '-' or '_' (e.g. openssl rand -hex 16)`);
    }
  }
  return lines;
}

/** A shop of many as the secret check sees it (commands/serve.ts). */
interface ShopSecrets {
  id: string;
  file: string;
  status: { user: string; password: string } | undefined;
  channels: readonly { name: string; access: AccessConfig }[];
}

/**
 * Feeds and status pages of different shops behind the same secret: whoever holds one shop's
 * (its manager, its marketplace) would open the other's, which is what serving many shops must
 * never allow (docs/shops.md). Typical cause: a shared channel file with one token. Said by
 * shop and channel, never with the secret.
 */
export function sharedSecretProblems(shops: readonly ShopSecrets[]): string[] {
  const holders = new Map<string, { shop: ShopSecrets; what: string; path: string }[]>();
  const hold = (key: string, shop: ShopSecrets, what: string, path: string) => {
    const list = holders.get(key) ?? [];
    if (!list.some((h) => h.shop.id === shop.id)) list.push({ shop, what, path });
    holders.set(key, list);
  };
  for (const shop of shops) {
    if (shop.status) hold(`basic\n${shop.status.user}\n${shop.status.password}`, shop, "status page", "serve.status");
    for (const c of shop.channels) {
      if (c.access.mode === "token") hold(`token\n${c.access.token}`, shop, `channel ${c.name}`, `channels (${c.name}).access.token`);
      if (c.access.mode === "basic") hold(`basic\n${c.access.user}\n${c.access.password}`, shop, `channel ${c.name}`, `channels (${c.name}).access`);
    }
  }
  const lines: string[] = [];
  for (const list of holders.values()) {
    if (list.length < 2) continue;
    const [first, ...others] = list;
    for (const h of others) {
      lines.push(`${h.shop.file}: ${h.path}: the same secret as shop ${first!.shop.id}'s ${first!.what}: whoever holds one would open the other; give each shop its own (in its shop file, docs/shops.md)`);
    }
  }
  return lines;
}
