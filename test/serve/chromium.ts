/**
 * Debian's chromium, headless, for the status page test: a DOM dump and a
 * screenshot of a URL. The flags keep it off the network (loopback only) and
 * out of any profile (a fresh --user-data-dir each time).
 */
import { execFile } from "node:child_process";
import type { Browser } from "playwright-core";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CHROMIUM = "/usr/bin/chromium";

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

async function run(args: string[]): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), "pharmafeed-chromium-"));
  const flags = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    `--user-data-dir=${profile}`,
  ];
  try {
    return await new Promise((resolve, reject) => {
      execFile(CHROMIUM, [...flags, ...args], { timeout: 45_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        error ? reject(new Error(`chromium failed: ${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/** The DOM after load, serialised. */
export function dumpDom(url: string): Promise<string> {
  return run(["--dump-dom", url]);
}

export async function screenshot(url: string, file: string, size = "1280,1000"): Promise<void> {
  await run([`--screenshot=${file}`, `--window-size=${size}`, url]);
}

/** Debian's chromium driven by playwright-core, or why it cannot be (missing, or refusing to start): the browser tests skip with that. */
export async function launchChromium(): Promise<{ browser: Browser } | { why: string }> {
  if (!hasChromium()) return { why: `${CHROMIUM} is missing (apt-get install -y chromium)` };
  const { chromium } = await import("playwright-core");
  try {
    return { browser: await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] }) };
  } catch (error) {
    return { why: `Chromium does not start here: ${(error as Error).message.split("\n")[0]}` };
  }
}
