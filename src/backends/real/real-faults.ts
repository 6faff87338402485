/**
 * Faults made physical on a real run. Client faults (gc-pause, crash, slow-call, db-slow, a
 * client's clock) are the simulator's own injectors: they act on the client processes and
 * the database model inside lock-sim. Redis faults act on the real processes and proxies:
 * - primary-crash: SIGKILL of the current primary (Sentinel fails it over for real); the
 *   stall holds the replication stream in the primary's proxy; healing restarts it empty;
 * - redis-restart: SIGKILL, then a restart `down-for` later, with its AOF (fsync always) or
 *   with its data directory wiped;
 * - redis-pause: SIGSTOP, SIGCONT when it ends (the process serves nothing, as DEBUG SLEEP);
 * - partition: the cut paths (client->node, client->Sentinels, replica->primary, Sentinel->node,
 *   each its own) hold every byte (mode silent, the default) or reset their connections and
 *   refuse new ones (mode reject), as the model's two modes;
 * - network-delay: the proxies of the target add the delay to every chunk.
 * A fault with no physical form here (a Redis node's clock, a Cluster) is refused before
 * anything starts (`refuseUnreal`).
 */
import { formatMicros } from '../../engine/time.js';
import { injectClientFault, type FaultContext } from '../../faults/index.js';
import type { ClientWorld } from '../../world/world.js';
import type { FaultSpec, PartitionMode } from '../../spec/faults.js';
import type { Scenario } from '../../spec/scenario.js';
import type { RealDeployment, RealNode } from './deployment.js';
import { RealBackendError } from './errors.js';
import type { TcpProxy } from './proxy.js';

const CLIENT = /^client-[0-9]+$/;

/** Throws (exit 2) for what a real run cannot do, naming the fault or the field. */
export function refuseUnreal(scenario: Scenario, faults: readonly FaultSpec[]): void {
  // The real backend runs the redis-server it finds (redis-binary.ts), which here is 7.0.15: a
  // scenario about another server's commands would silently run on 7.0's.
  if (scenario.redis.server !== 'redis-7.0') {
    throw new RealBackendError(`${scenario.file || scenario.name}: redis.server ${scenario.redis.server} has no real backend: it runs redis-server 7.0 only; run it on the model (the default backend) or set redis.server: redis-7.0`);
  }
  if (scenario.redis.topology === 'cluster') {
    throw new RealBackendError(`${scenario.file || scenario.name}: redis.topology cluster has no real backend yet (standalone, sentinel and independent do)`);
  }
  for (const f of faults) {
    if ((f.kind === 'clock-jump' || f.kind === 'clock-drift') && !CLIENT.test(f.target)) {
      throw new RealBackendError(`fault ${f.kind} on ${f.target} cannot be made real: lock-sim cannot step a Redis server's clock (it can on a client, whose clock lock-sim keeps)`);
    }
  }
}

/** The fault's host names -> real nodes, with `primary` resolved now. */
function nodeOf(deployment: RealDeployment, name: string): RealNode | null {
  if (name === 'primary') return deployment.primary;
  return deployment.node(name) ?? null;
}

/** One path a partition cuts: a whole proxy (path null), or one kind of connection through it. */
interface CutPath {
  proxy: TcpProxy;
  path: string | null;
}

/**
 * The paths between host `a` and host `b` (clients, redis-N, sentinel), each on its own:
 * - a client and a node: that client's proxy to the node;
 * - two nodes: the replication link either way (a replica's connection to the other node's
 *   announced proxy, told by its REPLCONF listening-port, proxy.ts classify);
 * - a node and `sentinel`: the Sentinels' connections to the node (told by their CLIENT SETNAME);
 * - a client and `sentinel`: that client's proxies to the Sentinels.
 * So a partition between a replica and its primary leaves both in the Sentinels' sight, as the
 * model's does.
 */
function pathsBetween(deployment: RealDeployment, a: string, b: string): CutPath[] {
  const na = nodeOf(deployment, a);
  const nb = nodeOf(deployment, b);
  if (na && nb) return [{ proxy: na.infra, path: `replica:${nb.infra.port}` }, { proxy: nb.infra, path: `replica:${na.infra.port}` }];
  if (na && CLIENT.test(b)) return [{ proxy: na.clientProxies.get(b) as TcpProxy, path: null }];
  if (nb && CLIENT.test(a)) return [{ proxy: nb.clientProxies.get(a) as TcpProxy, path: null }];
  const node = na ?? nb;
  if (node && (a === 'sentinel' || b === 'sentinel')) return [{ proxy: node.infra, path: 'sentinel' }];
  // A client and the Sentinels: that client's proxies to each Sentinel.
  const client = CLIENT.test(a) ? a : CLIENT.test(b) ? b : null;
  if (client && (a === 'sentinel' || b === 'sentinel')) return (deployment.sentinelProxies.get(client) ?? []).map((proxy) => ({ proxy, path: null }));
  return [];
}

function setCut(cut: CutPath, mode: PartitionMode | null): void {
  if (cut.path === null) cut.proxy.setCut(mode);
  else cut.proxy.setPathCut(cut.path, mode);
}

/** Every proxy touching a host. */
function proxiesOf(deployment: RealDeployment, host: string): TcpProxy[] {
  const node = nodeOf(deployment, host);
  if (node) return deployment.proxiesOf(node);
  if (CLIENT.test(host)) return deployment.nodes.map((n) => n.clientProxies.get(host) as TcpProxy);
  return [];
}

interface RealFaultHooks {
  /** Runs an asynchronous step of a fault; an error stops the run. */
  background(step: Promise<void>): void;
  allHosts(): string[];
}

export function injectRealFault(spec: FaultSpec, ctx: FaultContext<ClientWorld>, deployment: RealDeployment, hooks: RealFaultHooks): void {
  const { sim } = ctx.world;
  switch (spec.kind) {
    case 'primary-crash': {
      if (spec.replicationStalledUs > 0) {
        sim.scheduleAt(Math.max(0, spec.atUs - spec.replicationStalledUs), () => {
          deployment.primary.infra.setReplicationStalled(true);
          ctx.record('primary-crash', 'event', deployment.primary.name, 'replication stream to the replicas stalls (held in the proxy)');
        });
      }
      sim.scheduleAt(spec.atUs, () => {
        const node = deployment.primary;
        if (!node.process.running) return;
        deployment.crash(node);
        const lost = spec.replicationStalledUs > 0 ? `, the last ${formatMicros(spec.replicationStalledUs)} of writes never replicated` : '';
        ctx.record('primary-crash', 'start', node.name, `primary killed (SIGKILL)${lost}`);
        ctx.healAfter(spec.restartAfterUs, () => {
          if (node.process.running) return;
          // The held stream died with the process (its connections closed); new ones flow.
          node.infra.setReplicationStalled(false);
          hooks.background(deployment.restart(node, false).then(() => ctx.record('primary-crash', 'end', node.name, 'restarted empty (SIGKILL, no persistence)')));
        });
      });
      return;
    }
    case 'redis-restart':
      sim.scheduleAt(spec.atUs, () => {
        const node = nodeOf(deployment, spec.node);
        if (!node || !node.process.running) return;
        deployment.crash(node);
        const keep = spec.persistence === 'always';
        ctx.record('redis-restart', 'start', node.name, `killed (SIGKILL); back in ${formatMicros(spec.downUs)} ${keep ? 'with its data (AOF, fsync always)' : 'empty (data directory wiped)'}`);
        ctx.healAfter(spec.downUs, () => {
          if (node.process.running) return;
          hooks.background(deployment.restart(node, keep).then(() => ctx.record('redis-restart', 'end', node.name, `up again${keep ? '' : ', with an empty dataset'}`)));
        });
      });
      return;
    case 'redis-pause':
      sim.scheduleAt(spec.atUs, () => {
        const node = nodeOf(deployment, spec.node);
        if (!node || !node.process.running) return;
        deployment.setPaused(node, true);
        ctx.record('redis-pause', 'start', node.name, `SIGSTOP for ${formatMicros(spec.durationUs)}`);
        ctx.healAfter(spec.durationUs, () => {
          deployment.setPaused(node, false);
          ctx.record('redis-pause', 'end', node.name, 'SIGCONT');
        });
      });
      return;
    case 'partition':
      sim.scheduleAt(spec.atUs, () => {
        const name = (h: string): string => nodeOf(deployment, h)?.name ?? h;
        const isolate = spec.isolate.map(name);
        const others = spec.from ? spec.from.map(name) : hooks.allHosts().filter((h) => !isolate.includes(h));
        const cut = new Map<string, CutPath>();
        for (const a of isolate) for (const b of others) if (a !== b) for (const c of pathsBetween(deployment, a, b)) cut.set(`${c.proxy.name}#${c.path ?? '*'}`, c);
        for (const c of cut.values()) setCut(c, spec.mode);
        const how = spec.mode === 'reject' ? 'reset, new ones refused' : 'silent: bytes held, no reset';
        ctx.record('partition', 'start', isolate.join(','), `cut off from ${others.join(',')} for ${formatMicros(spec.durationUs)} (${cut.size} paths ${how})`);
        ctx.healAfter(spec.durationUs, () => {
          for (const c of cut.values()) setCut(c, null);
          ctx.record('partition', 'end', isolate.join(','), 'network healed');
        });
      });
      return;
    case 'network-delay':
      sim.scheduleAt(spec.atUs, () => {
        const target = nodeOf(deployment, spec.target)?.name ?? spec.target;
        const proxies = proxiesOf(deployment, target);
        for (const p of proxies) p.extraDelayUs += spec.delayUs;
        ctx.record('network-delay', 'start', target, `every chunk to or from ${target} held ${formatMicros(spec.delayUs)} longer in the proxies`);
        ctx.healAfter(spec.durationUs, () => {
          for (const p of proxies) p.extraDelayUs -= spec.delayUs;
          ctx.record('network-delay', 'end', target, 'delay gone');
        });
      });
      return;
    default:
      // Client-side faults: the simulator's injectors, on the clients lock-sim runs.
      injectClientFault(spec, ctx);
  }
}
