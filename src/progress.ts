/**
 * Progress of a long stream: a redrawn bar with rate and ETA on a terminal,
 * a log line every `intervalMs` otherwise (cron mail, journald, collectors).
 */
import type { Logger } from "./log.js";

export interface Progress {
  update(count: number, total: number | undefined): void;
  done(): void;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const mmss = `${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

export function createProgress(options: {
  label: string;
  tty: boolean;
  logger: Logger;
  write?: (text: string) => void;
  intervalMs?: number;
  now?: () => number;
}): Progress {
  const now = options.now ?? (() => performance.now());
  const write = options.write ?? ((text: string) => void process.stderr.write(text));
  const interval = options.intervalMs ?? (options.tty ? 100 : 10_000);
  const start = now();
  let last = -Infinity;
  let drawn = false;
  let latest = { count: 0, total: undefined as number | undefined };

  const render = () => {
    const elapsed = (now() - start) / 1000;
    const rate = elapsed > 0 ? latest.count / elapsed : 0;
    const { count, total } = latest;
    if (options.tty) {
      const width = 24;
      const ratio = total ? Math.min(1, count / total) : 0;
      const bar = total ? "#".repeat(Math.round(ratio * width)).padEnd(width, ".") : "".padEnd(width, "?");
      const eta = total && rate > 0 ? duration((total - count) / rate) : "--:--";
      write(`\r${options.label} [${bar}] ${count.toLocaleString("en")}/${total?.toLocaleString("en") ?? "?"} ${Math.round(rate).toLocaleString("en")}/s ETA ${eta} `);
      drawn = true;
    } else {
      options.logger.info(`${options.label} progress`, { count, total, perSecond: Math.round(rate) });
    }
  };

  return {
    update(count, total) {
      latest = { count, total };
      const t = now();
      if (t - last >= interval) {
        last = t;
        render();
      }
    },
    done() {
      if (options.tty && drawn) {
        render();
        write("\n");
      }
    },
  };
}
