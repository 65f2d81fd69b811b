/**
 * One shop's secret must never open another shop's feeds or page (issue 36): serve refuses a
 * config of many shops where two shops share a feed token, Basic credentials or status login,
 * naming the shop file and the channel, never the secret.
 */
import { describe, expect, it } from "vitest";
import { sharedSecretProblems } from "../../src/serve/check.js";

const TOKEN = "0123456789abcdef0123456789abcdef";
const shop = (id: string, channels: { name: string; access: never }[], status?: { user: string; password: string }) => ({ id, file: `/cfg/shops/${id}.json`, status, channels });
const token = (name: string, value: string) => ({ name, access: { mode: "token", token: value } as never });
const basic = (name: string, user: string, password: string) => ({ name, access: { mode: "basic", user, password } as never });

describe("secrets shared between shops", () => {
  it("a channel file shared with one token: refused at the second shop, the secret never said", () => {
    const lines = sharedSecretProblems([shop("alpha", [token("idealo", TOKEN)]), shop("beta", [token("idealo", TOKEN)]), shop("gamma", [token("idealo", `${TOKEN}x`)])]);
    expect(lines).toEqual([`/cfg/shops/beta.json: channels (idealo).access.token: the same secret as shop alpha's channel idealo: whoever holds one would open the other; give each shop its own (in its shop file, docs/shops.md)`]);
    expect(lines.join("\n")).not.toContain(TOKEN);
  });

  it("Basic credentials and status logins count alike; the same secret twice within one shop is that shop's own business", () => {
    const lines = sharedSecretProblems([
      shop("alpha", [basic("google", "google", "a-long-password-1"), basic("microsoft", "google", "a-long-password-1")], { user: "boss", password: "status-password-9" }),
      shop("beta", [basic("google", "google", "a-long-password-2")], { user: "boss", password: "status-password-9" }),
    ]);
    expect(lines).toEqual([`/cfg/shops/beta.json: serve.status: the same secret as shop alpha's status page: whoever holds one would open the other; give each shop its own (in its shop file, docs/shops.md)`]);
  });

  it("open feeds and different secrets: nothing to say", () => {
    expect(sharedSecretProblems([shop("alpha", [{ name: "open", access: { mode: "open" } as never }, token("idealo", TOKEN)]), shop("beta", [{ name: "open", access: { mode: "open" } as never }])])).toEqual([]);
  });
});
