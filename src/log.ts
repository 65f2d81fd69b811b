/**
 * Log lines for cron and for log collectors: plain `time level message k=v`
 * or one JSON object per line (`--log-format json`). Always on stderr, so that
 * stdout stays clean for data (`fetch` writes NDJSON there).
 */
export type LogFormat = "plain" | "json";
export type LogLevel = "info" | "warn" | "error";
/** Scalars, or (for structured events such as the run summary) arrays and objects of them. */
export type LogValue = string | number | boolean | null | readonly LogValue[] | { readonly [key: string]: LogValue | undefined };
export type LogFields = Record<string, LogValue | undefined>;

export interface Logger {
  readonly format: LogFormat;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

function plainValue(value: LogValue): string {
  const text = typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}

/**
 * The format of the command's logs, so that cli.ts writes the run's final error in
 * the same format: a collector reading JSON lines must not trip on the line that
 * matters most. Set by the last logger a command created.
 */
let errorFormat: LogFormat = "plain";
export function finalErrorFormat(): LogFormat {
  return errorFormat;
}

export function createLogger(options: { format?: LogFormat; write?: (line: string) => void; now?: () => Date } = {}): Logger {
  const format = options.format ?? "plain";
  if (options.write === undefined) errorFormat = format;
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  const log = (level: LogLevel, message: string, fields: LogFields = {}) => {
    const defined = Object.entries(fields).filter((entry): entry is [string, LogValue] => entry[1] !== undefined);
    if (format === "json") {
      write(`${JSON.stringify({ time: now().toISOString(), level, msg: message, ...Object.fromEntries(defined) })}\n`);
    } else {
      const tail = defined.map(([k, v]) => ` ${k}=${plainValue(v)}`).join("");
      write(`${now().toISOString()} ${level.padEnd(5)} ${message}${tail}\n`);
    }
  };
  return {
    format,
    info: (m, f) => log("info", m, f),
    warn: (m, f) => log("warn", m, f),
    error: (m, f) => log("error", m, f),
  };
}

/** A logger that keeps nothing (tests, library use). */
export const silentLogger: Logger = { format: "plain", info: () => {}, warn: () => {}, error: () => {} };

/** Every line of `logger` with these fields first (a shop's lines in a run of many shops: `shop=<name>`). */
export function withFields(logger: Logger, fields: LogFields): Logger {
  return {
    format: logger.format,
    info: (m, f) => logger.info(m, { ...fields, ...f }),
    warn: (m, f) => logger.warn(m, { ...fields, ...f }),
    error: (m, f) => logger.error(m, { ...fields, ...f }),
  };
}
