/**
 * The scenario's Redis topology made of real processes on loopback ports:
 * - standalone: one redis-server; independent: `masters` of them (Redlock);
 * - sentinel: a primary, `replicas` replicas (REPLICAOF) and `sentinels` redis-sentinel
 *   processes that fail it over for real.
 * Every path between two processes goes through a TcpProxy of lock-sim's (see proxy.ts):
 * - `clientProxies`: one per client and node;
 * - `infra` of a node: what Sentinels and replicas use to reach it, since each node announces
 *   its infra port (replica-announce-port), Sentinel monitors the primary there and the
 *   replicas' REPLICAOF names it (one address for both: Sentinel "fixes" a replica that
 *   follows another one, sentinel.c +fix-slave-config). The proxy tells the paths through it
 *   apart by their first commands (proxy.ts classify: a replica's REPLCONF listening-port, a
 *   Sentinel's CLIENT SETNAME), so a partition cuts a replica's link or the Sentinels' alone,
 *   and by PSYNC, so a fault can stall the replication stream alone.
 * The proxies carry the scenario's network: `redis-latency` one way on the client and infra
 * proxies, `replication-lag` on the replication stream, drawn per chunk from seeded streams
 * (on top of the loopback's own few tens of microseconds; delays under 1 ms pass on the next
 * turn of Node's event loop, whose timers count whole milliseconds). `replication-backlog`
 * is the real primary's own output buffer. Faults add delays, stalls and cuts.
 * A restarted server keeps its port, so the proxies in front of it stay valid.
 */
import { sample, type Distribution } from '../../engine/distribution.js';
import type { RandomStreams } from '../../engine/random.js';
import type { Scenario } from '../../spec/scenario.js';
import { Redis } from 'ioredis';
import { addressInUse, freePort, onFreePort, PORT_ATTEMPTS } from './ports.js';
import { MASTER_NAME, portTaken, RedisProcess, SentinelProcess } from './processes.js';
import { TcpProxy, type ProxyDelays } from './proxy.js';

/** Tries to start a killed node on its port, RESTART_RETRY_MS apart (see `restart`). */
const RESTART_ATTEMPTS = 5;
const RESTART_RETRY_MS = 100;

export interface RealNode {
  name: string;
  process: RedisProcess;
  port: number;
  /** What Sentinels and replicas reach this node through (its announced port). */
  infra: TcpProxy;
  /** client name -> its proxy to this node. */
  clientProxies: Map<string, TcpProxy>;
  paused: boolean;
}

export class RealDeployment {
  readonly nodes: RealNode[] = [];
  readonly sentinels: SentinelProcess[] = [];
  /** client name -> its proxies to the Sentinels, in Sentinel order. */
  readonly sentinelProxies = new Map<string, TcpProxy[]>();
  /** The node the Sentinels last announced as primary (redis-0 at the start). */
  primaryName = 'redis-0';

  constructor(
    private readonly scenario: Scenario,
    private readonly binary: string,
    private readonly clientNames: readonly string[],
    /** Nodes a restart must find with their data: they run with AOF, fsync always. */
    private readonly persistent: ReadonlySet<string>,
    private readonly random: RandomStreams,
  ) {}

  /** Each direction's delay drawn from `distribution`, from a named stream of its own. */
  private delays(distribution: Distribution, path: string): ProxyDelays {
    const up = this.random.fork(`real/${path}/up`);
    const down = this.random.fork(`real/${path}/down`);
    return { up: () => sample(distribution, up), down: () => sample(distribution, down) };
  }

  /** An infra proxy: redis-latency for Sentinels, replication-lag for the stream to replicas. */
  private infraDelays(path: string): ProxyDelays {
    const lag = this.random.fork(`real/${path}/replication`);
    return { ...this.delays(this.scenario.network.redisLatency, path), replication: () => sample(this.scenario.redis.replicationLag, lag) };
  }

  get topology(): Scenario['redis']['topology'] {
    return this.scenario.redis.topology;
  }

  async start(): Promise<void> {
    const r = this.scenario.redis;
    const count = r.topology === 'standalone' ? 1 : r.topology === 'independent' ? r.masters : 1 + r.replicas;
    for (let i = 0; i < count; i++) {
      const name = `redis-${i}`;
      const port = await freePort();
      const latency = this.scenario.network.redisLatency;
      // The deciders' latency is the clients' in the model too (runner/build-world.ts deciderLatency).
      const infra = new TcpProxy(`${name}/infra`, port, this.infraDelays(`${name}/infra`));
      await onFreePort((p) => infra.listen(p), addressInUse);
      const clientProxies = new Map<string, TcpProxy>();
      for (const client of this.clientNames) {
        const proxy = new TcpProxy(`${client}->${name}`, port, this.delays(latency, `${client}<->${name}`));
        await onFreePort((p) => proxy.listen(p), addressInUse);
        clientProxies.set(client, proxy);
      }
      // The primary's announced address, as Sentinel knows it: a replica pointing elsewhere
      // would be "fixed" by Sentinel after failover-timeout (sentinel.c +fix-slave-config).
      const replicaOf = i > 0 && r.topology === 'sentinel' ? this.nodes[0].infra.port : null;
      const process = new RedisProcess(name, this.binary, {
        port,
        announcePort: infra.port,
        replicaOf,
        persistent: this.persistent.has(name),
        // redis.conf takes whole seconds for both.
        replTimeoutS: Math.max(1, Math.round(r.replTimeoutUs / 1e6)),
        minReplicasToWrite: r.minReplicasToWrite,
        minReplicasMaxLagS: Math.max(1, Math.round(r.minReplicasMaxLagUs / 1e6)),
      });
      this.nodes.push({ name, process, port, infra, clientProxies, paused: false });
    }
    await Promise.all(this.nodes.map((n) => this.firstStart(n)));
    if (r.topology === 'sentinel') {
      for (let i = 0; i < r.sentinels; i++) {
        const sentinel = new SentinelProcess(`sentinel-${i}`, this.binary, {
          port: await freePort(),
          primaryPort: this.nodes[0].infra.port,
          quorum: r.quorum,
          downAfterMs: Math.max(1, Math.round(r.downAfterUs / 1000)),
          failoverTimeoutMs: Math.max(1, Math.round(r.failoverTimeoutUs / 1000)),
        });
        this.sentinels.push(sentinel);
      }
      await Promise.all(this.sentinels.map((s) => startRetrying(() => s.start(), async () => (s.options.port = await freePort()))));
      // Each client reaches each Sentinel through a proxy of its own, so a partition that cuts a
      // client from `sentinel` cuts its view of failovers too.
      for (const client of this.clientNames) {
        const proxies: TcpProxy[] = [];
        for (const s of this.sentinels) {
          const proxy = new TcpProxy(`${client}->${s.name}`, s.options.port, this.delays(this.scenario.network.redisLatency, `${client}<->${s.name}`));
          await onFreePort((p) => proxy.listen(p), addressInUse);
          proxies.push(proxy);
        }
        this.sentinelProxies.set(client, proxies);
      }
    }
    await this.settled();
  }

  /**
   * Waits until the topology is what the scenario describes before the run's time begins:
   * every replica's link to the primary up (INFO replication master_link_status), and every
   * Sentinel aware of every replica and of the other Sentinels (SENTINEL MASTER num-slaves,
   * num-other-sentinels; Sentinels find replicas by INFO and each other by hello messages,
   * redis 7.0.15 sentinel.c sentinelRefreshInstanceInfo, sentinelProcessHelloMessage).
   */
  private async settled(): Promise<void> {
    const r = this.scenario.redis;
    if (r.topology !== 'sentinel') return;
    const ask = async (port: number, ...command: string[]): Promise<unknown> => {
      const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return await client.call(command[0], ...command.slice(1));
      } catch {
        return null;
      } finally {
        client.disconnect();
      }
    };
    for (let attempt = 0; ; attempt++) {
      // About a minute (Sentinels hello every 2 s): a topology that never settles is a failure.
      if (attempt === 600) throw new Error('the replicas and Sentinels did not settle within 600 polls');
      const links = await Promise.all(this.nodes.slice(1).map((n) => ask(n.port, 'INFO', 'replication')));
      const linked = links.every((info) => typeof info === 'string' && info.includes('master_link_status:up'));
      const views = await Promise.all(this.sentinels.map((s) => ask(s.options.port, 'SENTINEL', 'MASTER', MASTER_NAME)));
      const aware = views.every((view) => {
        if (!Array.isArray(view)) return false;
        const field = (name: string): number => Number(view[view.indexOf(name) + 1]);
        return field('num-slaves') >= r.replicas && field('num-other-sentinels') >= this.sentinels.length - 1;
      });
      if (linked && aware) return;
      await new Promise((resolve) => setTimeout(resolve, 100)); // lock-sim: wall-clock ok (real servers start in real time: poll until linked)
    }
  }

  /**
   * A node's first start; when its port was taken between the pick and the bind, on a new one
   * (its proxies follow it there: nothing has connected to the server yet).
   */
  private async firstStart(node: RealNode): Promise<void> {
    await startRetrying(
      () => node.process.start(),
      async () => {
        const port = await freePort();
        node.process.options.port = port;
        node.port = port;
        for (const proxy of this.proxiesOf(node)) proxy.retarget(port);
      },
    );
  }

  node(name: string): RealNode | undefined {
    return this.nodes.find((n) => n.name === name);
  }

  get primary(): RealNode {
    return this.node(this.primaryName) as RealNode;
  }

  /** The node announced at an infra port (what Sentinel names in +switch-master). */
  nodeAtAnnouncedPort(port: number): RealNode | undefined {
    return this.nodes.find((n) => n.infra.port === port);
  }

  /** ioredis natMap for one client: announced (infra) addresses -> that client's proxies. */
  natMapFor(client: string): Record<string, { host: string; port: number }> {
    const map: Record<string, { host: string; port: number }> = {};
    for (const n of this.nodes) map[`127.0.0.1:${n.infra.port}`] = { host: '127.0.0.1', port: (n.clientProxies.get(client) as TcpProxy).port };
    return map;
  }

  sentinelAddresses(): Array<{ host: string; port: number }> {
    return this.sentinels.map((s) => ({ host: '127.0.0.1', port: s.options.port }));
  }

  /** The Sentinels as one client reaches them: through its own proxies. */
  sentinelAddressesFor(client: string): Array<{ host: string; port: number }> {
    return (this.sentinelProxies.get(client) ?? []).map((p) => ({ host: '127.0.0.1', port: p.port }));
  }

  get masterName(): string {
    return MASTER_NAME;
  }

  /** Every proxy in front of a node. */
  proxiesOf(node: RealNode): TcpProxy[] {
    return [node.infra, ...node.clientProxies.values()];
  }

  crash(node: RealNode): void {
    if (node.paused) node.process.resume();
    node.paused = false;
    node.process.kill();
  }

  /**
   * Starts a killed node again on its port. While it was down, something may hold the port
   * for a moment: a connection retrying towards a free loopback port in the ephemeral range
   * can connect to itself (TCP simultaneous open), which took a restarted redis-2's port once
   * in about 17 real runs of scenarios/real/redlock-empty-restart.yaml ("bind: Address already
   * in use"); such a connection closes at its first exchange, so a few retries get the port.
   */
  async restart(node: RealNode, keepData: boolean): Promise<void> {
    if (!keepData) node.process.wipe();
    for (let attempt = 1; ; attempt++) {
      try {
        await node.process.start();
        return;
      } catch (err) {
        if (attempt >= RESTART_ATTEMPTS || !/Address already in use/.test(String(err))) throw err;
        await new Promise((resolve) => setTimeout(resolve, RESTART_RETRY_MS)); // lock-sim: wall-clock ok (waits for a real port to be free)
      }
    }
  }

  setPaused(node: RealNode, paused: boolean): void {
    if (node.paused === paused || !node.process.running) return;
    node.paused = paused;
    if (paused) node.process.pause();
    else node.process.resume();
  }

  /** Stops every process and proxy; safe to call twice. */
  async stop(): Promise<void> {
    for (const s of this.sentinels) s.dispose();
    for (const n of this.nodes) n.process.dispose();
    await Promise.all([...this.nodes.flatMap((n) => this.proxiesOf(n)), ...[...this.sentinelProxies.values()].flat()].map((p) => p.close()));
  }
}

/** Runs `start`, and after `movePort` again while its port was taken, up to PORT_ATTEMPTS times. */
async function startRetrying(start: () => Promise<void>, movePort: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await start();
      return;
    } catch (err) {
      if (attempt >= PORT_ATTEMPTS || !portTaken(err)) throw err;
      await movePort();
    }
  }
}
