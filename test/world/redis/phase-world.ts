/**
 * A Redis deployment alone (no clients) for the failover phase tests: Sentinel's and the
 * Cluster's phases as they happen, the REPLICAOFs the deciders send, and helpers to find
 * them. Each test file gives its topology's parameters and its own write loop.
 */
import { Simulation } from '../../../src/engine/simulation.js';
import { Fabric } from '../../../src/world/network.js';
import { RedisDeployment, type DeploymentParams } from '../../../src/world/redis/deployment.js';
import type { RedisNode } from '../../../src/world/redis/node.js';

export interface PhaseEvent {
  atUs: number;
  phase: string;
  target: string;
  detail: string;
}

export type WorldOptions = Partial<DeploymentParams> & { seed?: number };

/**
 * Builds the deployment from `defaults` with `options` on top, and starts `startWrites`
 * (which schedules its own next write) once the phase and REPLICAOF recorders are in place.
 */
export function phaseWorld(defaults: DeploymentParams, options: WorldOptions, startWrites: (sim: Simulation, redis: RedisDeployment) => void) {
  const { seed = 1, ...overrides } = options;
  const sim = new Simulation(seed);
  const fabric = new Fabric();
  const redis = new RedisDeployment(sim, { ...defaults, ...overrides }, fabric);
  fabric.onChange = () => redis.networkChanged();
  const events: PhaseEvent[] = [];
  redis.onPhase((phase, target, detail) => events.push({ atUs: sim.nowUs, phase, target: target.name, detail }));
  redis.onFailover((_old, promoted) => events.push({ atUs: sim.nowUs, phase: 'promoted', target: promoted.name, detail: '' }));
  /** REPLICAOF <primary> as the deciders send it, with when it ran. */
  const follows: Array<{ atUs: number; node: string; primary: string }> = [];
  const follow = redis.follow.bind(redis);
  redis.follow = (node: RedisNode, primary: RedisNode) => {
    follows.push({ atUs: sim.nowUs, node: node.name, primary: primary.name });
    follow(node, primary);
  };
  startWrites(sim, redis);
  const node = (name: string) => redis.node(name) as RedisNode;
  const first = (phase: string): PhaseEvent => {
    const e = events.find((x) => x.phase === phase);
    if (!e) throw new Error(`no ${phase}: ${JSON.stringify(events)}`);
    return e;
  };
  const all = (phase: string): PhaseEvent[] => events.filter((x) => x.phase === phase);
  return { sim, fabric, redis, events, follows, node, first, all };
}
