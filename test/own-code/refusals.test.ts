/**
 * The Redis model's refusals reach user code as ioredis ReplyErrors with the server's text:
 * a minority Cluster master answers CLUSTERDOWN, a Sentinel primary short of replicas
 * NOREPLICAS. The README's Lua lock as a module in the worlds of cluster-split-brain.yaml and
 * sentinel-split-brain-min-replicas.yaml fails those acquires with the text. On the Cluster it
 * double-holds as the built-in lua-unlock does; on Sentinel only with ioredis' failoverDetector
 * (the built-in clients follow the Sentinels' announcements; an ioredis client by default keeps
 * its connection to a cut-off master until it closes).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';

/** A casebook world with its variants replaced by the built-in lua-unlock and its module twin. */
function twinOf(file: string) {
  const text = readFileSync(`scenarios/${file}`, 'utf8');
  const world = text.slice(0, text.indexOf('\nvariants:'));
  const scenario = parseScenario(`${world}
variants:
  builtin:  { lock: lua-unlock, lease: 10s }
  module:   { lock: { module: ./locks/token-lock.mjs }, lease: 10s }
  detector: { lock: { module: ../../test/own-code/modules/token-lock-detector.mjs }, lease: 10s }
`, `scenarios/own-code/${file}`);
  return scenario.variants.map((v) => runSimulated(scenario, v));
}

const errorsOf = (r: ReturnType<typeof runSimulated>): string[] =>
  r.history.filter((op) => op.f === 'acquire' && op.type === 'fail').map((op) => ('detail' in op ? String(op.detail) : ''));

describe('refusals reach user code as ReplyErrors', () => {
  it('CLUSTERDOWN from the master cut off from the majority; both double-hold', () => {
    const [builtin, module] = twinOf('cluster-split-brain.yaml');
    // On a Cluster the model's client re-reads the slot map (follows the new primary) whatever its options.
    expect(errorsOf(module)).toContain('ReplyError: CLUSTERDOWN The cluster is down');
    expect(errorsOf(builtin)).toContain('CLUSTERDOWN The cluster is down');
    expect(module.metrics.doubleHolders).toBeGreaterThan(0);
    expect(builtin.metrics.doubleHolders).toBeGreaterThan(0);
  });

  describe('NOREPLICAS from a Sentinel primary short of replicas (min-replicas-to-write)', () => {
    const [builtin, module, detector] = twinOf('sentinel-split-brain-min-replicas.yaml');

    it('reaches the module as a ReplyError with the server text', () => {
      expect(errorsOf(module)).toContain('ReplyError: NOREPLICAS Not enough good replicas to write.');
      expect(errorsOf(builtin)).toContain('NOREPLICAS Not enough good replicas to write.');
    });

    it('a client with failoverDetector follows the new master as the built-in clients do, and double-holds as they do', () => {
      expect(builtin.metrics.doubleHolders).toBeGreaterThan(0);
      expect(detector.metrics.doubleHolders).toBeGreaterThan(0);
    });

    it('an ioredis client with the default options stays on the cut-off master (its connection never closes), so it never holds on the new one', () => {
      expect(module.metrics.doubleHolders).toBe(0);
    });
  });
});
