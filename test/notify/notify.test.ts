/**
 * Alerts delivered to real local receivers: a webhook in each format (json,
 * Slack, Teams) and an e-mail through a local SMTP server; a refusing, a
 * failing and a hung receiver are logged and given up within the time limit,
 * never thrown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { alertText, notify, runAlert, type Alert } from "../../src/notify/index.js";
import { NotifySettings } from "../../src/notify/settings.js";
import type { Manifest } from "../../src/publish/manifest.js";
import { startReceiver, startSmtp, type HttpReceiver } from "./receivers.js";

function memory() {
  const lines: Record<string, unknown>[] = [];
  return { logger: createLogger({ format: "json", write: (l) => void lines.push(JSON.parse(l) as Record<string, unknown>) }), lines };
}

const entry = (name: string, published: true | string) => ({
  name, preset: "google", locale: "fr", format: "xml", contentType: "application/xml; charset=utf-8", file: `${name}.xml`,
  items: 10, excluded: {}, warnings: {}, fallbacks: {}, bytes: 10, sha256: "ab", published, live: null,
});

const manifest: Manifest = {
  version: 1,
  startedAt: "2026-11-25T02:15:00.000Z",
  endedAt: "2026-11-25T02:16:00.000Z",
  status: "degraded",
  source: { total: 10, received: 10, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 },
  channels: [entry("google-fr", "gate: items dropped 35.0% (100 -> 65), more than maxDropPercent 20%"), entry("idealo-fr", true)],
};

function gateAlert(): Alert {
  return runAlert({
    shop: "Pharmacie Test",
    statusUrl: "https://feeds.shop.example/",
    manifest,
    channels: ["google-fr", "idealo-fr"],
    error: { code: "GATE_TRIPPED", message: "not published, previous file kept: google-fr (gate: ...)" },
    exitCode: 5,
  });
}

const receivers: HttpReceiver[] = [];
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await smtp?.close();
});

async function receiver(mode: "ok" | "error" | "hang" = "ok"): Promise<HttpReceiver> {
  const r = await startReceiver(mode);
  receivers.push(r);
  return r;
}

describe("runAlert", () => {
  it("names the event by the run's error code: what happened, which channels, what to do", () => {
    const alert = gateAlert();
    expect(alert).toMatchObject({ event: "gate-tripped", exitCode: 5, errorCode: "GATE_TRIPPED", title: "Pharmacie Test: publish gate tripped: feeds not updated" });
    // Each reason once, in words; the run's own text beside it for scripts; the sentence above does not repeat it.
    expect(alert.channels).toEqual([
      { name: "google-fr", reason: "100 → 65 items (−35.0 %), a bigger drop than the 20 % allowed", detail: "gate: items dropped 35.0% (100 -> 65), more than maxDropPercent 20%" },
    ]);
    expect(alert.what).toBe("1 feed(s) not updated; their previous files stay online.");
    expect(alert.next).toContain("--force");
    const offers = runAlert({ shop: "S", channels: ["a", "b"], error: { code: "OFFERS_REFUSED", message: "offers file o.csv refused\n  - line 1: no key column" }, exitCode: 7 });
    expect(offers.event).toBe("offers-refused");
    // Why, not only that: the refusal's reasons are in the alert.
    expect(offers.what).toBe("the offers file was refused.\nOFFERS_REFUSED: offers file o.csv refused\n  - line 1: no key column");
    expect(offers.channels.map((c) => c.name)).toEqual(["a", "b"]);
    expect(offers.next).toContain("offers file");
    expect(runAlert({ shop: "S", channels: [], error: { code: "SOURCE_NETWORK", message: "x" }, exitCode: 4 }).event).toBe("run-failed");
    expect(runAlert({ shop: "S", channels: [], error: { code: "CHANNEL_FAILED", message: "x" }, exitCode: 1 }).event).toBe("channel-failed");
  });
});

describe("alerts in notify.language", () => {
  it("French and Dutch words for title, what happened, each reason and what to do; codes stay", () => {
    const fr = runAlert({ shop: "Pharmacie Test", manifest, channels: [], error: { code: "GATE_TRIPPED", message: "x" }, exitCode: 5, language: "fr" });
    expect(fr.title).toBe("Pharmacie Test: publication retenue : flux non mis à jour");
    expect(fr.channels[0]!.reason).toBe("100 → 65 articles (−35,0 %), une baisse plus forte que les 20 % admis");
    const text = alertText(fr);
    expect(text).toContain("Canaux:");
    expect(text).toContain("Que faire: Les fichiers précédents restent en ligne.");
    expect(text).toContain(", code de sortie 5.");
    const nl = runAlert({ shop: "S", channels: ["a"], error: { code: "SOURCE_NETWORK", message: "connect ECONNREFUSED" }, exitCode: 4, language: "nl" });
    expect(nl.what).toBe("de catalogus was niet bereikbaar.\nSOURCE_NETWORK: connect ECONNREFUSED");
    expect(alertText(nl)).toContain("- a: niet bijgewerkt: het vorige bestand blijft online");
    expect(NotifySettings.parse({}).language).toBe("en");
    expect(NotifySettings.safeParse({ language: "de" }).success).toBe(false);
  });
});

describe("notify", () => {
  it("posts JSON, Slack and Teams payloads and sends an e-mail", async () => {
    const [json, slack, teams] = [await receiver(), await receiver(), await receiver()];
    const settings = NotifySettings.parse({
      webhooks: [
        { url: json.url, headers: { Authorization: "Bearer t0ken" } },
        { url: slack.url, format: "slack" },
        { url: teams.url, format: "teams" },
      ],
      email: { host: "127.0.0.1", port: smtp.port, from: "feeds@shop.example", to: ["owner@shop.example", "ops@shop.example"] },
    });
    const { logger, lines } = memory();
    expect(await notify(settings, gateAlert(), logger)).toBe(4);

    expect(json.received).toHaveLength(1);
    expect(json.received[0]!.headers["authorization"]).toBe("Bearer t0ken");
    expect(json.received[0]!.body).toMatchObject({ event: "gate-tripped", exitCode: 5, channels: [{ name: "google-fr" }], statusUrl: "https://feeds.shop.example/" });
    const slackText = (slack.received[0]!.body as { text: string }).text;
    expect(slackText).toMatch(/^\*Pharmacie Test: publish gate tripped: feeds not updated\*\n/);
    expect(slackText).toContain("- google-fr: 100 → 65 items (−35.0 %), a bigger drop than the 20 % allowed");
    expect(slackText.match(/35\.0/g)).toHaveLength(1);
    expect(slackText).toContain("What to do: The previous files stay online.");
    const card = (teams.received[0]!.body as { type: string; attachments: { contentType: string; content: { type: string; body: { type: string; text?: string; facts?: unknown }[] } }[] });
    expect(card.type).toBe("message");
    expect(card.attachments[0]!.contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(card.attachments[0]!.content.type).toBe("AdaptiveCard");
    expect(card.attachments[0]!.content.body.find((b) => b.type === "FactSet")!.facts).toEqual([{ title: "google-fr", value: expect.stringContaining("a bigger drop than the 20 % allowed") as unknown }]);

    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.from).toBe("feeds@shop.example");
    expect(mail.to).toEqual(["owner@shop.example", "ops@shop.example"]);
    expect(mail.subject).toBe("Pharmacie Test: publish gate tripped: feeds not updated");
    expect(mail.text).toContain("- google-fr: 100 → 65 items (−35.0 %)");
    expect(mail.text).toContain("What to do:");
    expect(mail.text).toContain("Status page: https://feeds.shop.example/");
    expect(lines.filter((l) => l["msg"] === "alert sent")).toHaveLength(4);
    // The webhook URL is the credential: the log names its host only.
    expect(JSON.stringify(lines)).not.toContain("/hook");
  });

  it("gives up on a refusing, failing or hung receiver and an unreachable SMTP server: logged, never thrown", async () => {
    const [failing, hung, ok] = [await receiver("error"), await receiver("hang"), await receiver()];
    const closed = await startReceiver();
    await closed.close();
    const deadSmtp = await startSmtp();
    const deadPort = deadSmtp.port;
    await deadSmtp.close();
    const settings = NotifySettings.parse({
      timeoutMs: 500,
      webhooks: [{ url: closed.url }, { url: failing.url }, { url: hung.url }, { url: ok.url }],
      email: { host: "127.0.0.1", port: deadPort, from: "feeds@shop.example", to: ["owner@shop.example"] },
    });
    const { logger, lines } = memory();
    await expect(notify(settings, gateAlert(), logger)).resolves.toBe(1);
    const notSent = lines.filter((l) => l["msg"] === "alert not sent");
    expect(notSent).toHaveLength(4);
    expect(notSent.map((l) => String(l["error"]))).toEqual(
      expect.arrayContaining([expect.stringMatching(/ECONNREFUSED/), "HTTP 500: invalid_payload", "no answer within 500 ms"]) as unknown as string[],
    );
    expect(ok.received).toHaveLength(1);
    expect(hung.received).toHaveLength(1);
  });

  it("sends only the configured events, and nothing without a notify section", async () => {
    const r = await receiver();
    const { logger } = memory();
    expect(await notify(undefined, gateAlert(), logger)).toBe(0);
    expect(await notify(NotifySettings.parse({ webhooks: [{ url: r.url }], events: ["run-failed"] }), gateAlert(), logger)).toBe(0);
    expect(r.received).toHaveLength(0);
  });
});
