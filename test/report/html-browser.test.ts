/**
 * The HTML reports in a real browser: Debian's Chromium, headless (installed by .ci/run).
 * The page must render the table and the SVG, log no console error, run no script (names
 * from the scenario are escaped), and a screenshot is kept for a human to look at.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/backends/run-scenario.js';
import { loadScenario, parseScenario } from '../../src/scenario/load.js';
import { compare, summarise, type CompareSummary, type VariantSummary } from '../../src/sweep/compare-variants.js';
import { renderCompareHtml, renderRunHtml } from '../../src/report/html.js';
import { launchChromium, openReport, requireChromium } from './chromium.js';

const available = requireChromium();

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
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = (html: string, name: string) => openReport(browser, html, name);

  /**
   * Every text of every SVG on the page, in the SVG's own coordinates: none may leave its SVG
   * (a cut legend, "guard-o") and no two may overlap (fault labels, event numbers, point labels).
   */
  async function textProblems(page: Awaited<ReturnType<typeof open>>['page']): Promise<string[]> {
    // Runs in the page (a string: the test's own types have no DOM).
    return page.evaluate<string[]>(`(() => {
      const problems = [];
      document.querySelectorAll('svg').forEach((svg, s) => {
        const view = svg.viewBox.baseVal;
        const boxes = [...svg.querySelectorAll('text')].map((t) => ({ t: t.textContent, b: t.getBBox() }));
        for (const { t, b } of boxes) {
          if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > view.width + 0.5 || b.y + b.height > view.height + 0.5) problems.push('svg ' + s + ': "' + t + '" is cut at the edge');
        }
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i].b;
            const c = boxes[j].b;
            const w = Math.min(a.x + a.width, c.x + c.width) - Math.max(a.x, c.x);
            const h = Math.min(a.y + a.height, c.y + c.height) - Math.max(a.y, c.y);
            if (w > 0.5 && h > 0.5) problems.push('svg ' + s + ': "' + boxes[i].t + '" overlaps "' + boxes[j].t + '"');
          }
        }
      });
      return problems;
    })()`);
  }

  const casebook = readdirSync('scenarios').filter((f) => f.endsWith('.yaml')).sort();

  it.each(casebook)('run report of %s: no text of a chart is cut or overlaps another, no command-line wording', async (file) => {
    const result = runScenario(loadScenario(join('scenarios', file)));
    const html = renderRunHtml(result, {});
    expect(html).not.toMatch(/--from|--to|--key|give --/);
    const { page, errors } = await open(html, `run-${file.replace(/\.yaml$/, '')}`);
    expect(errors).toEqual([]);
    expect(await textProblems(page)).toEqual([]);
    await page.close();
  });

  it('draws each holder above the waiting bars of its lane, and labels beyond 26 holders uniquely', async () => {
    // A minute of lease-vs-slow-risk-check: dozens of holders in one window.
    const result = runScenario(loadScenario('scenarios/lease-vs-slow-risk-check.yaml'), { variants: ['lease-5s'] });
    const { page, errors } = await open(renderRunHtml(result, { fromUs: 0, toUs: 60_000_000 }), 'run-many-holders');
    expect(errors).toEqual([]);
    const legend = (await page.locator('p.meta').filter({ hasText: ' = r' }).first().textContent()) ?? '';
    const labels = [...legend.matchAll(/(?:^|, )([A-Z]+) = /g)].map((m) => m[1]);
    expect(labels.length).toBeGreaterThan(26);
    expect(new Set(labels).size).toBe(labels.length);
    // In each client lane, a holding bar comes after (is drawn over) every waiting bar: the
    // bars' titles in document order, lane by lane (a lane's bars follow its label).
    const titles = await page.evaluate<string[]>(`[...document.querySelectorAll('svg.timeline text.lane, svg.timeline rect title')].map((t) => t.tagName === 'title' ? t.textContent.split(' ')[0].replace(':', '') : '|' + t.textContent)`);
    const clientLanes = titles.join(' ').split('|').filter((l) => l.startsWith('client-'));
    expect(clientLanes.length).toBeGreaterThan(0);
    for (const lane of clientLanes) {
      const states = lane.split(' ').slice(1).filter((t) => t !== '');
      const lastWaiting = states.lastIndexOf('waiting');
      const firstHolding = states.indexOf('holding');
      if (lastWaiting >= 0 && firstHolding >= 0) expect(firstHolding).toBeGreaterThan(lastWaiting);
    }
    expect(await textProblems(page)).toEqual([]);
    await page.close();
  });

  it('lays out a compare report of many long-named variants: legends wrap, point labels do not collide', async () => {
    const variant = (name: string, j: number): VariantSummary => ({
      variant: name,
      runs: 100,
      oversell: { estimate: j % 3 === 0 ? 0 : 0.2, low: 0, high: j % 3 === 0 ? 0.037 : 0.29 },
      oversoldMean: 0.2,
      oversoldMax: 3,
      doubleHolders: { estimate: 0.8, low: 0.71, high: 0.87 },
      stuckMeanUs: 0,
      orphanMeanUs: 1_000_000,
      throughputMean: 1.67,
      p99MeanUs: 5_000_000,
      flashSale: { soldOutRuns: 0, soldOutMeanUs: 0, arrivalsMean: 2, busyShareMean: 0.1, p99MeanUs: { ordered: 5_000_000, refused: 1_000, error: 0 } },
      oversoldHistogram: [80, 10, 5, 5, 0, 0, 0, 0, 0, 0, 0],
      worst: j % 3 === 0 ? { seed: 1, oversold: 0, doubleHolders: 0, replay: 'x' } : { seed: 7, oversold: 3, doubleHolders: 2, replay: `npx lock-sim run x.yaml --seed 7 --variant v${j}` },
      worstVerdict: j % 3 === 0 ? 'LEAKY' : 'UNSAFE',
      verdicts: { SAFE: 0, DEGRADED: 0, STALLED: 0, UNAVAILABLE: 0, LEAKY: j % 3 === 0 ? 100 : 80, UNSAFE: j % 3 === 0 ? 0 : 20 },
      lostUpdates: { runs: { estimate: 0.2, low: 0.13, high: 0.29 }, mean: 0.2, unitsMean: 0.4 },
      liveness: { runs: { LIVE: 100, STALLED: 0, UNAVAILABLE: 0 }, failedShareMean: 0.01, longestStallMeanUs: 2_000_000 },
    });
    const names = ['lua+guard-only-conditional-update', 'redisson-4.7-watchdog-with-sync', 'redisson-3.12.4-watchdog-nosync', 'lua', 'setnx-expire-30s', 'set-nx-px+for-update', 'token-get-del+version-cas-jittered', 'fenced+fenced-write-reads-too', 'redlock-spec', 'redlock-v4+cond', 'redlock-v5', 'none+decrement'];
    const summary: CompareSummary = { scenario: 'many', file: 'many.yaml', seeds: '1..100', runsPerVariant: 100, variants: names.map(variant), paired: [] };
    const { page, errors } = await open(renderCompareHtml(summary), 'compare-many-variants');
    expect(errors).toEqual([]);
    expect(await page.locator('svg.forest rect.estimate').count()).toBe(names.length * 2);
    expect(await page.locator('svg.scatter circle.point').count()).toBe(names.length);
    expect(await textProblems(page)).toEqual([]);
    await page.close();
  });

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
    expect(await page.locator('.story').nth(1).textContent()).toMatch(/entered the critical section of lock:stock:100[0-9]{2}/);
    await page.close();
  });

  it('renders a compare report with its forest plot, safety-vs-throughput scatter and oversold chart', async () => {
    const summary = summarise(await compare(loadScenario('scenarios/failover.yaml'), { seeds: [1, 2, 3, 4, 5, 6, 7, 8], baseline: 'lua+guard' }));
    const { page, errors } = await open(renderCompareHtml(summary), 'compare-report');
    expect(errors).toEqual([]);
    expect(await page.locator('table.verdicts tbody tr').count()).toBe(4);
    expect(await page.locator('svg.chart rect').count()).toBeGreaterThan(2);
    // One square per variant and probability, one point per variant.
    expect(await page.locator('svg.forest rect.estimate').count()).toBe(8);
    expect(await page.locator('svg.scatter circle.point').count()).toBe(4);
    expect(await textProblems(page)).toEqual([]);
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
