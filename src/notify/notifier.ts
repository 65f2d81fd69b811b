/** A way to deliver an alert: one file per kind (webhook.ts, email.ts). */
import type { Alert } from "./alert.js";

export interface Notifier {
  /** For the log: the kind and where (never a secret). */
  name: string;
  /** Delivers or throws; gives up when `signal` aborts (the time limit). */
  send(alert: Alert, signal: AbortSignal): Promise<void>;
}
