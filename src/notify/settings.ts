/**
 * The `notify` section of the main config: where alerts go. Webhook URLs and
 * SMTP passwords are secrets: write them as environment references
 * ("${SLACK_WEBHOOK_URL}"), like the catalogue key.
 */
import { z } from "zod";
import { ALERT_LANGUAGES } from "./alert-words.js";

/** What a shop can be alerted about (README, "Monitoring and alerts"). */
export const ALERT_EVENTS = ["run-failed", "gate-tripped", "channel-failed", "offers-refused", "run-degraded", "feeds-stale", "merchant-disapprovals", "merchant-account-issue", "run-recovered"] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

export const WebhookSettings = z
  .object({
    url: z.url({ protocol: /^https?$/ }),
    /**
     * json: pharmafeed's own payload (for a script or an incident tool);
     * slack: {"text": ...} (Slack incoming webhooks, Mattermost, Rocket.Chat, Discord's /slack endpoint);
     * teams: a message with one Adaptive Card (Teams Workflows and incoming webhooks).
     */
    format: z.enum(["json", "slack", "teams"]).default("json"),
    /** Extra request headers (e.g. an Authorization for an incident tool). */
    headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();
export type WebhookSettings = z.infer<typeof WebhookSettings>;

export const EmailSettings = z
  .object({
    host: z.string().min(1),
    /** 587 (STARTTLS, upgraded when the server offers it), 465 with `secure: true`, 25 inside a network. */
    port: z.number().int().min(1).max(65535).default(587),
    /** TLS from the first byte (port 465). */
    secure: z.boolean().default(false),
    /** Refuse to send unless the server upgrades to TLS. */
    requireTLS: z.boolean().default(false),
    user: z.string().optional(),
    password: z.string().optional(),
    from: z.string().min(3),
    to: z.array(z.string().min(3)).min(1),
  })
  .strict();
export type EmailSettings = z.infer<typeof EmailSettings>;

export const NotifySettings = z
  .object({
    webhooks: z.array(WebhookSettings).default([]),
    email: EmailSettings.optional(),
    /** Only these events (default: all). */
    events: z.array(z.enum(ALERT_EVENTS)).optional(),
    /** Each notifier's time limit; a slow one is logged and given up, never holding the run. */
    timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
    /** The status page's address, linked in every alert. */
    statusUrl: z.url().optional(),
    /** The language of the alerts' words (title, what happened, what to do, reasons); codes and paths stay as they are. */
    language: z.enum(ALERT_LANGUAGES).default("en"),
    /** How often `serve` checks whether the feeds went stale. */
    staleCheckMinutes: z.number().positive().max(24 * 60).default(10),
  })
  .strict();
export type NotifySettings = z.infer<typeof NotifySettings>;
