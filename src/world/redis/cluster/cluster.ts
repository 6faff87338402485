/**
 * A Redis Cluster's failure detection and replica failover (redis 7.0.15 src/cluster.c; the
 * model's overview is index.ts's): the cluster's setup, its parts composed on one state
 * (state.ts), and what the deployment tells it (a crash, any change that re-plans the crons)
 * and asks it (whether a node refuses keyed commands).
 */
import type { RandomStreams } from '../../../engine/random.js';
import type { Simulation } from '../../../engine/simulation.js';
import type { Fabric } from '../../network.js';
import { SkippableTimer, timerGapUs, type PhaseListener, type RedisControl } from '../failover.js';
import type { RedisNode } from '../node.js';
import { ClusterBus } from './bus.js';
import { BusNode, type ClusterParams, type PeerState } from './bus-node.js';
import { CLUSTER_CRON_PERIOD_MS, CLUSTER_RANDOM_PING_EVERY, MS } from './constants.js';
import { Cron } from './cron.js';
import { FailureDetection } from './detection.js';
import { Election } from './election.js';
import { MessageHandler } from './messages.js';
import { ClusterState } from './state.js';

/** Failure detection and failover of a Redis Cluster: its setup, and its parts composed on one state. */
export class ClusterFailover {
  private readonly state: ClusterState;

  constructor(sim: Simulation, params: ClusterParams, control: RedisControl, fabric: Fabric, random: RandomStreams) {
    const state = new ClusterState(sim, params, control, fabric, random);
    this.state = state;
    const bus = new ClusterBus(state, (to, m) => messages.receive(to, m));
    const detection = new FailureDetection(state, bus);
    const election = new Election(state, bus, detection);
    const messages = new MessageHandler(state, bus, detection, election);
    const cron = new Cron(state, bus, detection, election);
    const ours = control.nodes;
    const primary = this.addNode(`${ours[0].name}`, ours[0], ours[0].name, 0);
    for (const r of ours.slice(1)) this.addNode(r.name, r, r.name, 0).masterOf = primary;
    for (let s = 1; s < params.masters; s++) {
      const m = this.addNode(`cluster-master-${s + 1}`, null, params.othersHost, s);
      for (let k = 1; k <= params.replicas; k++) this.addNode(`cluster-replica-${s + 1}-${k}`, null, params.othersHost, s).masterOf = m;
    }
    // At time 0 the cluster has been running: every node heard from every other within the
    // last node-timeout / 2, and the crons (and their every-10th random PING) run at random
    // phases.
    for (const a of state.nodes) {
      for (const b of state.nodes) {
        if (a === b) continue;
        const pong = -a.rng.int(0, Math.floor(params.nodeTimeoutUs / 2));
        a.peers.set(b, {
          linkUp: true,
          connecting: false,
          linkSinceUs: -params.nodeTimeoutUs,
          pingSentUs: null,
          pongReceivedUs: pong,
          dataReceivedUs: pong,
          pfail: false,
          fail: false,
          failTimeUs: 0,
          reports: new Map(),
          votedTimeUs: -Infinity,
        });
      }
      a.firstIteration = a.rng.int(0, CLUSTER_RANDOM_PING_EVERY - 1);
      const timerRng = random.fork(`cluster/${a.name}/timer`);
      a.timer = new SkippableTimer(
        sim,
        timerRng.int(0, CLUSTER_CRON_PERIOD_MS * MS - 1),
        () => timerGapUs(CLUSTER_CRON_PERIOD_MS, timerRng),
        (index) => cron.cron(a, a.firstIteration + index),
        () => cron.nextDueUs(a),
        params.everyCron === true,
      );
    }
    for (const a of state.nodes) a.timer.plan();
  }

  /** What the history is told: PFAIL, FAIL of one of our nodes. */
  get onPhase(): PhaseListener | null {
    return this.state.onPhase;
  }

  set onPhase(listener: PhaseListener | null) {
    this.state.onPhase = listener;
  }

  /** A node of the bus, with its own stream of draws; `redis` null for the other shards' nodes. */
  private addNode(name: string, redis: RedisNode | null, host: string, shard: number): BusNode {
    const { state } = this;
    const b = new BusNode(name, redis, host, shard, state.random.fork(`cluster/${name}`));
    state.nodes.push(b);
    if (redis) state.byRedis.set(redis, b);
    return b;
  }

  /** A node slept, woke, restarted or the network changed: every node re-plans its cron. */
  changed(): void {
    for (const b of this.state.nodes) b.timer.plan();
  }

  /** kill -9 of one of our nodes: every connection to it closes. */
  nodeCrashed(node: RedisNode): void {
    const dead = this.state.byRedis.get(node);
    if (!dead) return;
    for (const b of this.state.nodes) if (b !== dead) (b.peers.get(dead) as PeerState).linkUp = false;
    for (const s of dead.peers.values()) s.linkUp = false;
    this.changed();
  }

  /** Whether this node's cluster state is fail (it answers CLUSTERDOWN to every keyed command, reads too: node.ts admissionError). */
  refusesWrites(node: RedisNode): boolean {
    const b = this.state.byRedis.get(node);
    return b !== undefined && b.isMaster && !b.clusterOk;
  }
}
