import { it } from 'vitest';
import { runYaml } from './helpers.js';
it('scratch', () => {
  const r = runYaml(`
name: t
duration: 30s
drain: 60s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 1, users: 2, think: 1s, steps: [lock, read, deduct, order, unlock] }
redis: { topology: sentinel, replicas: 1, down-after: 60s }
faults:
  - { kind: partition, at: 10s, duration: 15s, isolate: [redis-1], from: [redis-0] }
variants:
  v: { lock: redisson, redisson-version: "3.47.0" }
`);
  for (const op of r.history.filter((o) => o.f !== 'setup' && o.timeUs > 9.5e6 && !['read-stock','write-stock','order','request'].includes(o.f)).slice(0, 50)) console.log((op.timeUs / 1e6).toFixed(6), op.process, op.type, op.f, (op as any).request ?? '', (op as any).holder ?? '', (op as any).by ?? '', (op as any).detail ?? (op as any).cause ?? '');
});
