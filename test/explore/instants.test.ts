/** Critical instants read from a hand-written history. */
import { describe, expect, it } from 'vitest';
import { InstantRecorder } from '../../src/explore/instants.js';
import { fault, history, keyState, lock, renew, request, setup } from './history.js';

describe('InstantRecorder', () => {
  it('names every kind of instant and the hosts it concerns', () => {
    const ops = history([
      [0, setup()],
      [1000, request('invoke', 'r1', 'client-1')],
      [1000, lock('acquire', 'invoke', 'r1', 'client-1/w1')],
      [2000, keyState('redis-0', 'r1', 5_002_000)],
      [3000, lock('acquire', 'ok', 'r1', 'client-1/w1')],
      [4000, keyState('redis-1', 'r1', 5_002_000, 'sync')],
      [4500, renew('client-1/redisson-renewal', 'r1')],
      [6000, fault('failover', 'event', 'redis-1')],
      [7000, keyState('redis-1', null, null, 'delete', 'r1')],
      [8000, lock('release', 'invoke', 'r1', 'client-1/w1')],
    ]);
    const rec = new InstantRecorder();
    for (const op of ops) rec.observe(op);
    const got = rec.instants().map((c) => `${c.atUs} ${c.kind} ${c.hosts.join('+')}`);
    expect(got).toEqual([
      '1000 request client-1',
      '1000 lock-sent client-1',
      '2000 lock-executed redis-0+primary+client-1',
      '3000 lock-reply client-1',
      '3000 critical-section client-1',
      '4000 replication redis-1+client-1',
      '4500 renewal client-1',
      '5002000 ttl-expiry redis-0+client-1+primary',
      '5002000 ttl-expiry redis-1+client-1',
      '6000 failover redis-1',
      // After the failover redis-1 is the primary: its change is a lock command executed there.
      '7000 lock-executed redis-1+primary+client-1',
      '8000 lock-sent client-1',
      '8000 critical-section client-1',
    ].sort((a, b) => Number(a.split(' ')[0]) - Number(b.split(' ')[0])));
  });

  it('leaves out the faults a schedule placed (their start and end are not instants of the run)', () => {
    const rec = new InstantRecorder();
    for (const op of history([[0, setup()], [10, fault('crash', 'start', 'client-1')], [20, fault('crash', 'end', 'client-1')]])) rec.observe(op);
    expect(rec.instants()).toEqual([]);
  });
});
