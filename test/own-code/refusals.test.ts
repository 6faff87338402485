/**
 * The Redis model's refusals reach user code as ioredis ReplyErrors with the server's text:
 * a minority Cluster master answers CLUSTERDOWN, a Sentinel primary short of replicas
 * NOREPLICAS. The README's Lua lock as a module in the worlds of cluster-split-brain.yaml and
 * sentinel-split-brain-min-replicas.yaml fails those acquires with the text, and double-holds
 * as the built-in lua-unlock does there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runVariant } from '../../src/runner/run.js';
import { parseScenario } from '../../src/scenario/load.js';

/** A casebook world with its variants replaced by the built-in lua-unlock and its module twin. */
function twinOf(file: string) {
  const text = readFileSync(`scenarios/${file}`, 'utf8');
  const world = text.slice(0, text.indexOf('\nvariants:'));
  const scenario = parseScenario(`${world}
variants:
  builtin: { lock: lua-unlock, lease: 10s }
  module:  { lock: { module: ./locks/token-lock.mjs }, lease: 10s }
`, `scenarios/own-code/${file}`);
  return scenario.variants.map((v) => runVariant(scenario, v));
}

const errorsOf = (r: ReturnType<typeof runVariant>): string[] =>
  r.history.filter((op) => op.f === 'acquire' && op.type === 'fail').map((op) => ('detail' in op ? String(op.detail) : ''));

describe('refusals reach user code as ReplyErrors', () => {
  it('CLUSTERDOWN from the master cut off from the majority; both double-hold', () => {
    const [builtin, module] = twinOf('cluster-split-brain.yaml');
    expect(errorsOf(module)).toContain('ReplyError: CLUSTERDOWN The cluster is down');
    expect(errorsOf(builtin)).toContain('CLUSTERDOWN The cluster is down');
    expect(module.metrics.doubleHolders).toBeGreaterThan(0);
    expect(builtin.metrics.doubleHolders).toBeGreaterThan(0);
  });

  it('NOREPLICAS from a Sentinel primary short of replicas (min-replicas-to-write)', () => {
    const [builtin, module] = twinOf('sentinel-split-brain-min-replicas.yaml');
    expect(errorsOf(module)).toContain('ReplyError: NOREPLICAS Not enough good replicas to write.');
    expect(errorsOf(builtin)).toContain('NOREPLICAS Not enough good replicas to write.');
    expect(module.metrics.doubleHolders > 0).toBe(builtin.metrics.doubleHolders > 0);
  });
});
