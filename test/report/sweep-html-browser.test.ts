/**
 * The sweep's HTML report in headless Chromium (as html-browser.test.ts does for run and
 * compare): one parameter draws a line per variant with its 95% band, two draw a heatmap per
 * variant and metric; no console error, nothing fetched, names escaped; screenshots are kept
 * in test-output/ for a human to look at.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { parseValueSpec } from '../../src/sweep/param-values.js';
import { checkParam, scenarioText } from '../../src/sweep/params.js';
import { sweep, SweepGrid } from '../../src/sweep/sweep-grid.js';
import { renderSweepHtml } from '../../src/report/sweep-html.js';
import { launchChromium, openReport, requireChromium } from './chromium.js';

const available = requireChromium();

const WORLD = `
name: section
duration: 20s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 4, arrival: 4/s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 3s }
variants:
  '<i>v</i>&': { lock: lua-unlock, lease: 1s }
  cond: { lock: lua-unlock, lease: 1s, guard: conditional }
`;

async function sweepOf(params: Array<[string, string]>) {
  const source = scenarioText(WORLD, 'section.yaml');
  const checked = params.map(([path, values]) => {
    const spec = parseValueSpec(values);
    if (!spec.ok) throw new Error(spec.message);
    return checkParam(source, path, spec.value);
  });
  return sweep(new SweepGrid(parseScenario(WORLD, 'section.yaml'), source, checked), { seeds: [1, 2, 3] });
}

describe.skipIf(!available)('sweep HTML report in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = (html: string, name: string) => openReport(browser, html, name);

  it('draws one parameter as lines with 95% bands, a legend entry per variant, names escaped', async () => {
    const { page, errors, requests, dialogs } = await open(renderSweepHtml(await sweepOf([['variants.cond.lease', '1s..6s/6']])), 'sweep-line');
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(dialogs).toEqual([]);
    // Five metrics, each one chart; two probabilities have a band per variant.
    expect(await page.locator('svg').count()).toBe(5);
    expect(await page.locator('svg polygon').count()).toBe(2 * 2);
    expect(await page.locator('svg polyline').count()).toBe(5 * 2);
    expect(await page.locator('svg').first().locator('text', { hasText: '<i>v</i>&' }).count()).toBe(1);
    const box = await page.locator('svg').first().boundingBox();
    expect(box?.width).toBeGreaterThan(500);
    await page.close();
  });

  it('draws two parameters as a heatmap per variant and metric, every cell labelled', async () => {
    const { page, errors } = await open(renderSweepHtml(await sweepOf([['variants.cond.lease', '2s,4s'], ['dependencies.work', '1s,3s,5s']])), 'sweep-heatmap');
    expect(errors).toEqual([]);
    expect(await page.locator('svg').count()).toBe(5 * 2);
    expect(await page.locator('svg g.cell').count()).toBe(5 * 2 * 6);
    expect(await page.locator('h3', { hasText: '<i>v</i>&' }).count()).toBe(5);
    await page.close();
  });
});
