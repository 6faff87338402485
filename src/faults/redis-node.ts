/**
 * Faults of one Redis node.
 * - redis-pause: DEBUG SLEEP; the server serves nothing, commands queue and run when it
 *   wakes, and a primary that sleeps past detection is failed over (redis src/debug.c
 *   DEBUG SLEEP stops the main thread; Sentinel then sees no PING reply, sentinel.c 7.0.15).
 * - redis-restart: kill -9 and a restart `down-for` later, with the dataset (AOF with
 *   appendfsync always) or empty (no persistence, the Redis default). Redlock's argument:
 *   a master that forgets its locks lets a second client reach a quorum, unless restarts are
 *   delayed beyond the longest TTL (redis.io "Distributed Locks with Redis", "Performance, crash recovery and
 *   fsync").
 */
import { formatMicros } from '../engine/time.js';
import type { FaultSpec } from '../spec/faults.js';
import type { FaultContext } from './fault-context.js';
import { findNode } from './hosts.js';

export function injectRedisPause(spec: Extract<FaultSpec, { kind: 'redis-pause' }>, ctx: FaultContext): void {
  const { sim, redis } = ctx.world;
  sim.scheduleAt(spec.atUs, () => {
    const node = findNode(ctx.world, spec.node);
    if (!node.up) return;
    redis.setPaused(node, true);
    ctx.record('redis-pause', 'start', node.name, `DEBUG SLEEP ${formatMicros(spec.durationUs)}`);
    ctx.healAfter(spec.durationUs, () => {
      redis.setPaused(node, false);
      ctx.record('redis-pause', 'end', node.name, `awake as ${node.role}`);
    });
  });
}

export function injectRedisRestart(spec: Extract<FaultSpec, { kind: 'redis-restart' }>, ctx: FaultContext): void {
  const { sim, redis } = ctx.world;
  sim.scheduleAt(spec.atUs, () => {
    const node = findNode(ctx.world, spec.node);
    if (!node.up) return;
    redis.crash(node);
    const keep = spec.persistence === 'always';
    ctx.record('redis-restart', 'start', node.name, `killed; back in ${formatMicros(spec.downUs)} ${keep ? 'with its data (AOF, fsync always)' : 'empty (no persistence)'}`);
    ctx.healAfter(spec.downUs, () => {
      if (node.up) return;
      redis.restart(node, keep);
      ctx.record('redis-restart', 'end', node.name, `up again as ${node.role}${keep ? '' : ', with an empty dataset'}`);
    });
  });
}
