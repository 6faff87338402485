/**
 * Where the browser test finds Chromium: Debian's `chromium` package, which .ci/run installs.
 * Shared by the browser tests (launch, open a report, collect what the page must not do) and
 * by the notice that `npm test` prints when it is missing.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = (): boolean => existsSync(CHROMIUM);
export const BROWSER_TEST = 'test/report/html-browser.test.ts';
export const skipNotice = (): string =>
  `NOTICE: ${BROWSER_TEST} is SKIPPED: ${CHROMIUM} is missing, so the HTML reports were not checked in a browser ` +
  '(apt-get install chromium, as .ci/run does; under CI=true the missing browser is a failure instead)';

/**
 * Fails under CI=true when Chromium is missing (.ci/run installs it), else prints the skip
 * notice; returns whether the browser tests can run.
 */
export function requireChromium(): boolean {
  const available = chromiumAvailable();
  if (!available && process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package`);
  // Printed here as well as by test/notices.ts, so that running one browser test alone says it too.
  if (!available) console.warn(skipNotice());
  return available;
}

/** Where the pages and their screenshots are kept for a human to look at. */
export const OUTPUT_DIR = resolve('test-output');

export async function launchChromium(): Promise<Browser> {
  // No sandbox: Chromium refuses to start its sandbox as root (CI containers run as root).
  // No background networking, updates or sync: the machine may have no network, and the
  // tests check that the page itself fetches nothing. timeout 0: Playwright's own limit on
  // the launch (3 minutes) is wall-clock time that a loaded machine can exceed; a hang is
  // caught by vitest's hook limit (vitest.config.ts) instead.
  return chromium.launch({
    executablePath: CHROMIUM,
    timeout: 0,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Writes the HTML to test-output/NAME.html, opens it, keeps a full-page screenshot, and
 * collects what the page must not do: console errors, dialogs (a script that ran), requests
 * other than file: ones.
 */
export async function openReport(browser: Browser, html: string, name: string) {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const file = join(OUTPUT_DIR, `${name}.html`);
  writeFileSync(file, html);
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  // Playwright's 30 s default for goto, screenshot and every locator call is wall-clock
  // time too: off, for the same reason as the launch's.
  page.setDefaultTimeout(0);
  const errors: string[] = [];
  const dialogs: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(file).href);
  await page.screenshot({ path: join(OUTPUT_DIR, `${name}.png`), fullPage: true });
  return { page, errors, dialogs, requests };
}
