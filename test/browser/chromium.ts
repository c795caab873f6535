// Debian's Chromium driven by playwright-core (Playwright's own browser download is not used). When the
// browser cannot start, callers skip loudly instead of failing for a reason unrelated to the code.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser as PlaywrightBrowser, BrowserContext } from 'playwright-core';
import t from 'tap';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * One Chromium per test process, closed when the process's tests are over: the browser tests run in one
 * process (`all-browser/`), and starting Chromium (and loading playwright) once instead of once per
 * file took a good part of their CPU off.
 */
let shared: Promise<PlaywrightBrowser | string> | null = null;

function sharedChromium(): Promise<PlaywrightBrowser | string> {
  if (shared === null) {
    const launched = chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS }).catch(
      (err: unknown) => `Chromium did not start: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
    );
    shared = launched;
    t.teardown(async () => {
      const browser = await launched;
      if (typeof browser !== 'string') await browser.close();
    });
  }
  return shared;
}

/**
 * A context of its own each time (cookies, storage and permissions of its own, like a fresh profile), so
 * no state leaks between tests; the browser under it is shared. Returns a reason string when it cannot start.
 */
export async function launchChromium(viewport = { width: 1280, height: 900 }): Promise<Browser | string> {
  if (!existsSync(CHROMIUM_PATH)) return `${CHROMIUM_PATH} not found (apt-get install chromium)`;
  const browser = await sharedChromium();
  if (typeof browser === 'string') return browser;
  const context = await browser.newContext({ viewport });
  return { context, close: () => context.close() };
}
