/**
 * The HTML reports in a real browser: Debian's Chromium, headless (installed by .ci/run).
 * The page must render the table and the SVG, log no console error, run no script (names
 * from the scenario are escaped), and a screenshot is kept for a human to look at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/runner/run-scenario.js';
import { loadScenario, parseScenario } from '../../src/scenario/load.js';
import { compare, summarise } from '../../src/sweep/compare.js';
import { renderCompareHtml, renderRunHtml } from '../../src/report/html.js';
import { CHROMIUM, chromiumAvailable, skipNotice } from './chromium.js';

const available = chromiumAvailable();
if (!available && process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package`);
// Printed here as well as by test/notices.ts, so that running this file alone says it too.
if (!available) console.warn(skipNotice());

const outDir = resolve('test-output');
mkdirSync(outDir, { recursive: true });

const HOSTILE = `<script>alert("x")</script>&'"`;
const hostileScenario = () =>
  parseScenario(
    `
name: '${HOSTILE.replace(/'/g, "''")}'
description: '<img src=x onerror=alert(1)>'
duration: 20s
stock: { sku: 1, available: 100 }
workload: { clients: 2, workers: 2, users: 2, think: 50ms, steps: [lock, read, "<b>call</b>", deduct, order, unlock] }
dependencies: { "<b>call</b>": 1500ms }
variants:
  '<i>v</i>&': { lock: lua-unlock, lease: 1s, wait: 3s, retry-interval: 20ms }
`,
    'hostile.yaml',
  );

describe.skipIf(!available)('HTML reports in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    // No sandbox: Chromium refuses to start its sandbox as root (CI containers run as root).
    // No background networking, updates or sync: the machine may have no network, and the
    // test checks that the page itself fetches nothing. timeout 0: Playwright's own limit on
    // the launch (3 minutes) is wall-clock time that a loaded machine can exceed; a hang is
    // caught by vitest's hook limit (vitest.config.ts) instead.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      timeout: 0,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(html: string, name: string) {
    const file = join(outDir, `${name}.html`);
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
    await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: true });
    return { page, errors, dialogs, requests };
  }

  it('renders a run report: verdict table, timeline SVG, story; no console errors, nothing fetched', async () => {
    const result = runScenario(loadScenario('scenarios/failover.yaml'), { variants: ['lua', 'lua+guard'] });
    const { page, errors, requests } = await open(renderRunHtml(result, {}), 'run-report');
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(await page.locator('table.verdicts tbody tr').count()).toBe(2);
    expect(await page.locator('td.UNSAFE').count()).toBe(1);
    const svg = page.locator('svg.timeline').first();
    const box = await svg.boundingBox();
    expect(box?.width).toBeGreaterThan(500);
    expect(await svg.locator('rect').count()).toBeGreaterThan(5);
    expect(await page.locator('details.scenario pre').textContent()).toContain('kind: primary-crash');
    expect(await page.locator('.story').nth(1).textContent()).toContain('entered the critical section of lock:stock:10046');
    await page.close();
  });

  it('renders a compare report with its oversold chart', async () => {
    const summary = summarise(await compare(loadScenario('scenarios/failover.yaml'), { seeds: [1, 2, 3, 4], variants: ['lua', 'lua+guard'], baseline: 'lua+guard' }));
    const { page, errors } = await open(renderCompareHtml(summary), 'compare-report');
    expect(errors).toEqual([]);
    expect(await page.locator('table.verdicts tbody tr').count()).toBe(2);
    expect(await page.locator('svg.chart rect').count()).toBeGreaterThan(2);
    await page.close();
  });

  it('escapes every name from the scenario: no script runs, the text shows as written', async () => {
    const result = runScenario(hostileScenario());
    const html = renderRunHtml(result, {});
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    const { page, errors, dialogs } = await open(html, 'hostile-report');
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.locator('h1').textContent()).toBe(HOSTILE);
    expect(await page.locator('table.verdicts td').first().textContent()).toBe('<i>v</i>&');
    expect(await page.title()).toBe(`lock-sim: ${HOSTILE}`);
    await page.close();
  });
});
