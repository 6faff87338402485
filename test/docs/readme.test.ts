/** The documentation stays true: every lock, guard, fault, metric and scenario it should list is there, on its page. */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS } from '../../src/faults/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { METRIC_NAMES } from '../../src/checker/metric-names.js';
import { GUARD_NAMES, LOCK_NAMES } from '../../src/variants/registry.js';
import { readPage } from './pages.js';

const readme = readFileSync('README.md', 'utf8');
const model = ['docs/model/locks-and-guards.md', 'docs/model/faults.md', 'docs/reference/metrics.md'].map(readPage).join('\n');
const casebook = readPage('docs/casebook.md');
const listed = (name: string, page = model) => page.includes(`| \`${name}\``);

describe('the documentation', () => {
  it('documents every lock, guard, fault kind and metric in the tables of the model and the metrics page', () => {
    const missing = [...LOCK_NAMES, ...GUARD_NAMES, ...FAULT_KINDS, ...METRIC_NAMES].filter((n) => !listed(n));
    expect(missing).toEqual([]);
  });

  it('lists every scenario in the casebook', () => {
    const files = readdirSync('scenarios').filter((f) => f.endsWith('.yaml'));
    expect(files.filter((f) => !listed(f, casebook))).toEqual([]);
  });

  it('lists every explore scenario (scenarios/explore/) in the casebook', () => {
    const files = readdirSync('scenarios/explore').filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => !listed(`explore/${f}`, casebook))).toEqual([]);
  });

  it('lists every real-time scenario (scenarios/real/)', () => {
    const files = readdirSync('scenarios/real').filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    const guide = readPage('docs/guides/real-backend.md');
    expect(files.filter((f) => !guide.includes(`scenarios/real/${f}`))).toEqual([]);
  });

  it('shows a scenario-format example that is a valid scenario', () => {
    const section = readPage('docs/reference/scenario-format.md');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const scenario = parseScenario(yaml, 'docs/reference/scenario-format.md');
    expect(scenario.variants.map((v) => v.name)).toEqual(['lua', 'watchdog', 'lua+guard']);
    expect(scenario.randomFaults).toHaveLength(1);
  });

  it('keeps the two-command quick start', () => {
    expect(readme).toContain('npm install && npx lock-sim run scenarios/failover.yaml');
    expect(readme).toMatch(/```sh\nnpm test\n```/);
  });
});
