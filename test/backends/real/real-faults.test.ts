/**
 * What the real backend refuses before it starts anything (real-faults.ts refuseUnreal, exit 2
 * through RealBackendError): a server version other than the redis-server 7.0 it measures,
 * next to the same scenario on redis-7.0, which it accepts.
 */
import { describe, expect, it } from 'vitest';
import { RealBackendError } from '../../../src/backends/real/errors.js';
import { refuseUnreal } from '../../../src/backends/real/real-faults.js';
import { parseScenario } from '../../../src/scenario/load.js';

const scenario = (server: string) => parseScenario(`name: servers
duration: 2s
stock: { sku: 1, available: 5 }
workload: { arrival: 1/s }
redis: { server: ${server} }
variants:
  a: { lock: delex-unlock }
`, 'servers.yaml');

describe('refuseUnreal: redis.server', () => {
  it('refuses redis-8.4 and the Valkeys, naming the field and the way out', () => {
    for (const server of ['redis-7.4', 'redis-8.4', 'valkey-8.1', 'valkey-9.0']) {
      const s = scenario(server);
      expect(() => refuseUnreal(s, s.faults)).toThrow(RealBackendError);
      expect(() => refuseUnreal(s, s.faults)).toThrow(`servers.yaml: redis.server ${server} has no real backend: it runs redis-server 7.0 only`);
    }
  });

  it('... and accepts redis-7.0 (where DELEX gets the real server\'s unknown-command error)', () => {
    const s = scenario('redis-7.0');
    expect(() => refuseUnreal(s, s.faults)).not.toThrow();
  });
});
