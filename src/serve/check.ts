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
  channels: readonly { name: string; configFile: string; access: AccessConfig }[];
}

type Login = { user: string; password: string };

/**
 * Whoever holds this feed's secret knows the password of `login`: a Basic password or a token
 * equal to it. Compared on the password alone: a user name is no secret ("manager").
 */
function knowsPassword(access: AccessConfig, login: Login): boolean {
  // An unset password is refused on its own line: not a secret anyone holds.
  if (login.password === "") return false;
  if (access.mode === "basic") return access.password === login.password;
  return access.mode === "token" && access.token === login.password;
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
  for (const { name, configFile, access } of channels) {
    // A marketplace holds its feed's credentials: they must not open the manager's page too.
    if (serve.status && knowsPassword(access, serve.status)) {
      lines.push(`${file}: serve.status: the same secret as channel ${name}'s access (${configFile}): whoever fetches that feed would open the status page; give the status page its own`);
    }
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
export interface ShopSecrets {
  id: string;
  file: string;
  status: Login | undefined;
  channels: readonly { name: string; access: AccessConfig }[];
}

/** The main file's serve.status: the overview and every shop's page. */
export interface OperatorSecrets {
  file: string;
  status: Login | undefined;
}

const SAME = "whoever holds one would open the other; give each shop its own (in its shop file, docs/shops.md)";

/** Each password-like secret of a shop, with its JSON path and what holds it. */
function secretsHeld(shop: ShopSecrets): { secret: string; path: string; what: string }[] {
  const out = shop.status ? [{ secret: shop.status.password, path: "serve.status", what: "status page login" }] : [];
  for (const c of shop.channels) {
    if (c.access.mode === "token") out.push({ secret: c.access.token, path: `channels (${c.name}).access.token`, what: `channel ${c.name}` });
    if (c.access.mode === "basic") out.push({ secret: c.access.password, path: `channels (${c.name}).access`, what: `channel ${c.name}` });
  }
  return out;
}

/**
 * The operator's login opens the overview and every shop's page: a shop whose manager or
 * marketplace is given the operator's password (as its own password or token) holds all of
 * them. Compared on the password alone: the user name is no secret ("operator").
 */
function operatorProblems(shops: readonly ShopSecrets[], operator: OperatorSecrets | undefined): string[] {
  if (!operator?.status || operator.status.password === "") return [];
  const password = operator.status.password;
  return shops.flatMap((shop) =>
    secretsHeld(shop)
      .filter((h) => h.secret === password)
      .map((h) => `${shop.file}: ${h.path}: the same secret as the operator's status login (${operator.file}: serve.status): whoever holds this shop's ${h.what} would open the overview and every shop's page; give the shop its own`),
  );
}

/**
 * Feeds and status pages of different shops behind the same secret: whoever holds one shop's
 * (its manager, its marketplace) would open the other's, which is what serving many shops must
 * never allow (docs/shops.md). Typical cause: a shared channel file with one token. Nor may any
 * shop hold the operator's password. Said by shop and channel, never with the secret.
 */
export function sharedSecretProblems(shops: readonly ShopSecrets[], operator?: OperatorSecrets): string[] {
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
  const lines = operatorProblems(shops, operator);
  for (const [first, ...others] of holders.values()) {
    for (const h of others) lines.push(`${h.shop.file}: ${h.path}: the same secret as shop ${first!.shop.id}'s ${first!.what}: ${SAME}`);
  }
  return lines;
}
