/**
 * The fake's OAuth token endpoint: checks a JWT bearer grant as Google does (RS256
 * signature by the key registered for `iss`, audience = this endpoint, not expired,
 * the content scope) and hands out opaque access tokens it remembers.
 */
import { createVerify, randomBytes } from "node:crypto";

export interface Grant {
  clientEmail: string;
  until: number;
}

export type TokenAnswer = { status: number; body: Record<string, unknown> };

function part(text: string | undefined): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Buffer.from(text ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export class FakeTokens {
  readonly tokens = new Map<string, Grant>();
  grants = 0;

  constructor(
    private readonly publicKeys: ReadonlyMap<string, string>,
    private readonly now: () => number,
    private readonly lifetimeSeconds = 3600,
  ) {}

  grant(form: URLSearchParams, audience: string): TokenAnswer {
    const refuse = (error: string, description: string): TokenAnswer => ({ status: 400, body: { error, error_description: description } });
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return refuse("unsupported_grant_type", "Invalid grant_type");
    const [head, claims, signature] = (form.get("assertion") ?? "").split(".");
    const header = part(head);
    const payload = part(claims);
    if (!header || !payload || signature === undefined || header["alg"] !== "RS256") return refuse("invalid_grant", "Invalid JWT");
    const publicKey = this.publicKeys.get(String(payload["iss"]));
    if (!publicKey) return refuse("invalid_grant", "Invalid grant: account not found");
    const valid = createVerify("RSA-SHA256").update(`${head}.${claims}`).verify(publicKey, Buffer.from(signature, "base64url"));
    if (!valid) return refuse("invalid_grant", "Invalid JWT Signature.");
    if (payload["aud"] !== audience) return refuse("invalid_grant", "Invalid JWT: audience");
    const nowSeconds = Math.floor(this.now() / 1000);
    if (typeof payload["exp"] !== "number" || payload["exp"] < nowSeconds) return refuse("invalid_grant", "Invalid JWT: Token must be a short-lived token");
    if (!String(payload["scope"] ?? "").split(" ").includes("https://www.googleapis.com/auth/content")) return refuse("invalid_scope", "Invalid OAuth scope");
    const token = `ya29.fake-${randomBytes(12).toString("hex")}`;
    this.grants++;
    this.tokens.set(token, { clientEmail: String(payload["iss"]), until: this.now() + this.lifetimeSeconds * 1000 });
    return { status: 200, body: { access_token: token, expires_in: this.lifetimeSeconds, token_type: "Bearer" } };
  }

  /** The client of a bearer header, or undefined (missing, unknown or expired). */
  check(header: string | undefined): string | undefined {
    const token = /^Bearer (\S+)$/.exec(header ?? "")?.[1];
    const grant = token === undefined ? undefined : this.tokens.get(token);
    return grant && grant.until > this.now() ? grant.clientEmail : undefined;
  }

  /** Tests: every token issued so far stops working (a revoked key, an early expiry). */
  revokeAll(): void {
    this.tokens.clear();
  }
}
