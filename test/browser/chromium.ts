// Debian's Chromium driven by playwright-core (Playwright's own browser download is not used). When the
// browser cannot start, callers skip loudly instead of failing for a reason unrelated to the code.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';

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

/** A fresh profile each time, so no state leaks between runs. Returns a reason string when it cannot start. */
export async function launchChromium(viewport = { width: 1280, height: 900 }): Promise<Browser | string> {
  if (!existsSync(CHROMIUM_PATH)) return `${CHROMIUM_PATH} not found (apt-get install chromium)`;
  const profile = mkdtempSync(join(tmpdir(), 'mgw-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: ARGS, viewport });
    return {
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    return `Chromium did not start: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
  }
}
