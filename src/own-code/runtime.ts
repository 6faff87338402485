/**
 * One run's bridge between the simulation and user lock code: a user-side client (the
 * factory's lock and its ioredis-compatible clients) per simulated client process, and the
 * interpretation of what user code asks for:
 * - a command travels like the built-in protocols' commands: on the process's connection to
 *   the node (independent masters: its ioredis connection, with reconnects, as node-redlock's
 *   clients), with the network's latencies, cuts and dead nodes; its reply is handled by the
 *   client process, so a GC pause of the process holds it;
 * - a timer is a thread of the client process (a GC pause holds it; kill -9 ends it), due
 *   after its delay measured by the client's clock (drift);
 * - a settled acquire or release fires the signal the request's thread waits on.
 * User code runs only inside `UserCode.call` (user-code.ts: in this thread, in the run's own
 * `vm` context), at the simulated instant of the event that called it, so what it does is
 * stamped with that instant.
 */
import { simulatedTransport } from '../world/sim-transport.js';
import type { ProcessGroup } from '../engine/process.js';
import { Signal } from '../engine/signal.js';
import type { Simulation } from '../engine/simulation.js';
import type { ClientHost } from '../world/client-host.js';
import type { EachOutcome } from '../world/effects.js';
import { IoredisConnection, type IoredisBehaviour } from '../world/ioredis-connection.js';
import { isErrorReply, type RedisReply } from '../world/redis/reply.js';
import type { RedisNode } from '../world/redis/node.js';
import type { Topology } from '../spec/redis.js';
import type { OwnLockOptions } from './contract.js';
import { RequestIdentity } from './request-identity.js';
import { UserCode } from './user-code.js';
import type { ClientConfig, ReplyContinuation, TimerHandle, WorkerAction } from './user-thread.js';
import { enterUserCode, leaveUserCode } from './watchdog.js';

/** What a user call settled with, as the protocol reads it. */
export type Settled =
  | { ok: true; value: number | boolean | null }
  | { ok: false; error: { message: string; name: string; timeout: boolean; frame?: string | null } };

interface ModuleSpec {
  /** Absolute path of the module. */
  file: string;
  exportName: string;
  /** The scenario file's directory: user-code frames in the history are relative to it. */
  baseDir: string;
  /** The time zone and locale Date and Intl read (sandbox/date-zone.ts). */
  timeZone: string;
  locale: string;
  /** The client family the factory receives. */
  client: 'ioredis' | 'node-redis' | 'node-redis@4' | 'node-redis@5';
}

interface Bridge {
  id: number;
  host: ClientHost;
  /** The process's own realm: its context, its module instance (user-code.ts). */
  realm: UserCode;
  incarnation: number;
  /** The user client's connections, by number (one per master for independent masters). */
  connections: Map<number, IoredisConnection>;
  /** Each connection's options as user code last set them. */
  cfg: Map<number, ClientConfig>;
  /** The requests in flight in this process, to attribute what its handlers send (request-identity.ts). */
  identity: RequestIdentity;
}

/** A call in flight: whose, on which key. */
interface CallInfo {
  signal: Signal<Settled>;
  bridge: Bridge;
  tag: string;
  op: 'acquire' | 'release';
}

/** ioredis 5.11.1 defaults (RedisOptions.ts): retryStrategy min(times * 50, 2000), maxRetriesPerRequest 20, the offline queue on. */
const DEFAULT_CONFIG: ClientConfig = { maxRetries: 20, offlineQueue: true, retry: 'default', failoverDetector: false };

/** A message to user code: what it names is what the watchdog reports when user code is stuck (watchdog.ts). */
type ThreadMessage = { op: string; client?: number; key?: string; status?: string; [field: string]: unknown };

/** Something user code did that the history should show (DiagnosticOp: an exception outside acquire/release, an unhandled rejection, a refused call). */
type DiagnosticHook = (client: string, kind: 'uncaught' | 'unhandled-rejection' | 'refused-call' | 'watchdog-stop', detail: string, frame: string | null) => void;

/** A reply as it travels to user code: errors as their message. */
type WireOutcome =
  | { status: 'ok'; reply: unknown; error?: string }
  | { status: 'timeout' }
  | { status: 'error'; message: string };

function wireReply(reply: RedisReply): unknown {
  if (isErrorReply(reply)) return { __error: reply.message };
  if (Array.isArray(reply)) return reply.map(wireReply);
  return reply;
}

function wire(outcome: EachOutcome | { status: 'ok'; reply: RedisReply } | { status: 'timeout' }): WireOutcome {
  if (outcome.status === 'ok') {
    return isErrorReply(outcome.reply) ? { status: 'ok', reply: null, error: outcome.reply.message } : { status: 'ok', reply: wireReply(outcome.reply) };
  }
  if (outcome.status === 'error') return { status: 'error', message: outcome.message };
  return { status: 'timeout' };
}

export class OwnCodeRuntime {
  private readonly bridges = new Map<ClientHost, Bridge>();
  private readonly byId = new Map<number, Bridge>();
  private readonly calls = new Map<number, CallInfo>();
  /** Numbers the armings of user timers (TimerHandle.arming). */
  private armings = 0;
  private readonly subscriptions = new Map<string, () => void>();
  private readonly independent: boolean;
  private readonly watchedHosts = new Set<ClientHost>();
  private nextCall = 1;
  private nextClient = 1;
  onDiagnostic: DiagnosticHook | null = null;

  constructor(
    private readonly sim: Simulation,
    private readonly module: ModuleSpec,
    private readonly options: OwnLockOptions,
    /** Independent masters: one client per master; otherwise one, to the primary the process knows. */
    private readonly topology: Topology,
    /** The request key a Redis key stands for (key-attribution.ts, the variant's `keys`). */
    private readonly lockKeyOf: (redisKey: string) => string | null,
  ) {
    this.independent = topology === 'independent';
  }

  acquire(host: ClientHost, tag: string, key: string): Signal<Settled> {
    return this.invoke(host, { op: 'acquire', tag, key });
  }

  release(host: ClientHost, tag: string, handle: number, key: string): Signal<Settled> {
    return this.invoke(host, { op: 'release', tag, handle, key });
  }

  private invoke(host: ClientHost, message: { op: 'acquire' | 'release'; tag: string; key: string; handle?: number }): Signal<Settled> {
    const bridge = this.bridgeFor(host);
    const call = this.nextCall++;
    const signal = new Signal<Settled>('own-code call');
    this.calls.set(call, { signal, bridge, tag: message.tag, op: message.op });
    bridge.identity.begin(message.tag, message.key, message.op);
    this.send({ ...message, client: bridge.id, call });
    return signal;
  }

  /** The user-side client of this process; a process that crashed and restarted gets a new one, with a new module instance. */
  private bridgeFor(host: ClientHost): Bridge {
    const known = this.bridges.get(host);
    if (known && known.incarnation === host.incarnation) return known;
    if (known) {
      this.send({ op: 'kill', client: known.id });
      // The killed process's kernel closed its sockets (ClientHost.crash does the same for its own).
      for (const c of known.connections.values()) c.dispose();
    }
    const realm = UserCode.forProcess(this.module.file);
    const identity = new RequestIdentity(host.name, this.lockKeyOf);
    const bridge: Bridge = { id: this.nextClient++, host, realm, incarnation: host.incarnation, connections: new Map(), cfg: new Map(), identity };
    if (!this.watchedHosts.has(host)) {
      this.watchedHosts.add(host);
      simulatedTransport(host.transport).primarySwitchListeners.push(() => this.primarySwitched(host));
    }
    this.bridges.set(host, bridge);
    this.byId.set(bridge.id, bridge);
    // Date and performance.now in user code read the client's clock when called (a call into user code runs at one simulated instant). (lock-sim: wall-clock ok, names the simulated clock, reads none)
    realm.clockMs = (monotonic) => (monotonic ? host.clock.nowUs() / 1000 : host.clock.nowMs());
    // A stream per client process and incarnation: Math.random, crypto's random sources. lock-sim: wall-clock ok (seeded replacements)
    const seed = Math.floor(this.sim.random.fork(`own-code/${host.name}#${host.incarnation}`).next() * 2 ** 32);
    const m = this.module;
    enterUserCode('load', host.name, null, this.sim.nowUs);
    try {
      realm.load({ client: bridge.id, name: host.name, incarnation: host.incarnation, seed, baseDir: m.baseDir, timeZone: m.timeZone, locale: m.locale }, this.sim.nowUs / 1000);
    } finally {
      leaveUserCode();
    }
    const connections = this.independent ? simulatedTransport(host.transport).lockNodes.length : 1;
    this.send({ op: 'client', client: bridge.id, name: host.name, connections, exportName: m.exportName, options: this.options, family: m.client });
    return bridge;
  }

  /** Calls user code at this simulated instant, then does what it asked. */
  private send(message: ThreadMessage): unknown {
    const bridge = this.byId.get(message.client!)!;
    // The watchdog's note of what runs (watchdog.ts): a busy loop is reported with it.
    enterUserCode(message.op, bridge.host.name, message.key ?? null, this.sim.nowUs);
    let answer;
    try {
      answer = bridge.realm.call(message);
    } finally {
      leaveUserCode();
    }
    for (const action of answer.actions) this.perform(bridge, action);
    return answer.result;
  }

  private live(id: number): Bridge | null {
    const b = this.byId.get(id);
    if (!b || b.incarnation !== b.host.incarnation || !b.host.up) return null;
    return b;
  }

  private perform(from: Bridge, a: WorkerAction): void {
    switch (a.kind) {
      case 'settled': {
        const info = this.calls.get(a.call);
        if (info === undefined) return;
        this.calls.delete(a.call);
        const taken = info.bridge.identity.settled(info.tag, info.op, a.ok && typeof a.value === 'number');
        // The request whose acquire returned the lock holds what was written for it by guess.
        const transport = simulatedTransport(info.bridge.host.transport);
        for (const g of taken) for (const node of new Set([...transport.lockNodes, transport.primary])) node.reattribute(g.redisKey, g.guessedTag, info.tag);
        info.signal.fire(a.ok ? { ok: true, value: a.value } : { ok: false, error: a.error });
        return;
      }
      case 'cmd': {
        const b = this.live(a.client);
        if (b) this.command(b, a);
        return;
      }
      case 'batch': {
        const b = this.live(a.client);
        if (b) this.batch(b, a);
        return;
      }
      case 'timer':
        this.timer(from, a.timer, a.ms);
        return;
      default:
        this.performRare(from, a);
    }
  }

  /** The actions of a process's start, its errors and its subscriptions: kept out of perform, which V8 optimizes for those of every poll. */
  private performRare(from: Bridge, a: WorkerAction): void {
    switch (a.kind) {
      case 'reconnect': {
        const b = this.live(a.client);
        if (b) b.connections.get(a.conn)?.reconnect();
        return;
      }
      case 'subscribe': {
        const b = this.live(a.client);
        if (b) this.subscribe(b, a.conn, a.channel, a.sub);
        return;
      }
      case 'unsubscribe': {
        const key = `${from.id}/${a.sub}\u0000${a.channel}`;
        this.subscriptions.get(key)?.();
        this.subscriptions.delete(key);
        return;
      }
      case 'diagnostic':
        this.onDiagnostic?.(from.host.name, a.diagnostic, `${a.error.name}: ${a.error.message}`, a.error.frame);
        return;
    }
  }

  /**
   * Events of the client process: queue items as a process's wake-ups are, handled as the
   * engine handles one (src/engine/simulation.ts Simulation.run): dropped once the group is
   * dead (kill -9), held in the group while it is paused (a GC pause) and put back, in the
   * order it fell due, when it resumes (ProcessGroup.resume). Each is one closure, which calls
   * this first: true when it must not run now (dropped, or held to run again later). A timer
   * and a command's timeout are one event each, their wake-up, armed in the call that set
   * them, as Node arms a timer.
   */
  private static notNow(group: ProcessGroup | null, event: () => void): boolean {
    if (group === null) return false;
    if (group.dead) return true;
    if (group.pauseDepth > 0) {
      group.hold(event);
      return true;
    }
    return false;
  }

  /** Delivers something to user code as the client process: held while it is paused, never after it died. */
  private deliver(b: Bridge, message: ThreadMessage): void {
    const group = b.host.group;
    const event = (): void => {
      if (OwnCodeRuntime.notNow(group, event)) return;
      if (this.live(b.id)) this.send(message);
    };
    // At this instant, after what is already due now (a process's first step was queued the same way).
    this.sim.schedule(0, event);
  }

  /**
   * The user client's connection number `conn`: ioredis' connection model
   * (src/world/ioredis-connection.ts over tcp.ts) with the user's options. It dials a fixed
   * master (independent masters), or the primary the process knows at each (re)connect (ioredis
   * with Sentinels asks them for the master then). Latencies come from the stream the built-in
   * clients' connection to that node uses, so a module and its built-in twin meet the same ones.
   */
  private connectionOf(b: Bridge, conn: number, cfg: ClientConfig): IoredisConnection {
    const key = conn;
    b.cfg.set(conn, cfg);
    let c = b.connections.get(key);
    if (c) return c;
    const host = b.host;
    const transport = simulatedTransport(host.transport);
    const target = (): RedisNode => (this.independent ? transport.lockNodes[conn] : transport.primary);
    const stream = (node: RedisNode): string => (this.independent ? `ioredis/${host.name}->${node.name}` : `link/${host.name}<->${node.name}`);
    const behaviour: IoredisBehaviour = {
      retryStrategy: (times) => {
        const current = b.cfg.get(conn)!;
        if (current.retry === 'none') return null;
        // ioredis 5.11.1 RedisOptions.ts DEFAULT_REDIS_OPTIONS.retryStrategy.
        if (current.retry === 'default') return Math.min(times * 50, 2000);
        if (!this.live(b.id)) return null;
        const answer = this.send({ op: 'retry', client: b.id, conn, times }) as { delay: number | null } | null;
        return answer?.delay ?? null;
      },
      maxRetriesPerRequest: () => b.cfg.get(conn)!.maxRetries,
      enableOfflineQueue: () => b.cfg.get(conn)!.offlineQueue,
      keepOnlyWhenReady: true,
      target,
      pathTo: (node) => transport.tcpPath(stream(node)),
      onStatus: (status, arg) => {
        // Events reach user code as the client process: held by its GC pause, never after it died.
        if (this.live(b.id)) this.deliver(b, { op: 'status', client: b.id, conn, status, arg });
      },
    };
    const node = target();
    c = new IoredisConnection(transport.tcpPath(stream(node)), host.name, node, host.group, behaviour);
    b.connections.set(key, c);
    return c;
  }

  /** A reply or an error, then the commandTimeout race (ioredis 5.11.1 Command.ts setTimeout: "Command timed out"). */ // lock-sim: wall-clock ok (cites ioredis; reads no clock)
  private answerOnce(b: Bridge, done: ReplyContinuation, timeoutMs: number | null): (outcome: WireOutcome) => void {
    let answered = false;
    const host = b.host;
    if (timeoutMs !== null) {
      const group = host.group;
      // Armed when the command is written: ioredis 5.11.1 arms a command's timeout in the call
      // that sends it (Redis.ts sendCommand), and Node puts a new timer into its list in the
      // call that sets it (lib/timers.js); due timeoutMs of the client's clock later.
      const wake = (): void => {
        if (OwnCodeRuntime.notNow(group, wake) || answered) return;
        answered = true;
        if (this.live(b.id)) this.send({ op: 'reply', client: b.id, done, outcome: { status: 'timeout' } });
      };
      this.sim.schedule(this.localToSimUs(host, timeoutMs), wake);
    }
    return (outcome) => {
      if (answered) return;
      answered = true;
      this.deliver(b, { op: 'reply', client: b.id, done, outcome });
    };
  }

  private command(b: Bridge, a: Extract<WorkerAction, { kind: 'cmd' }>): void {
    const answer = this.answerOnce(b, a.done, a.timeoutMs);
    this.connectionOf(b, a.conn, a.cfg).send(a.args, b.identity.tagOf(a.tag, a.args), (outcome) => answer(wire(outcome)));
  }

  /**
   * MULTI ... EXEC: written in one go, run by the node as redis 7.0.15 runs a transaction
   * (RedisNode.executeTransaction, transaction.ts: a command refused when queued aborts it
   * with EXECABORT; run-time errors are per command). User code gets EXEC's reply, and the
   * queued replies for ioredis' `previousErrors`.
   */
  private batch(b: Bridge, a: Extract<WorkerAction, { kind: 'batch' }>): void {
    const answer = this.answerOnce(b, a.done, a.timeoutMs);
    let tag = a.tag;
    for (const c of a.commands) if ((tag = b.identity.tagOf(a.tag, c)) !== a.tag) break;
    this.connectionOf(b, a.conn, a.cfg).sendTransaction(
      a.commands,
      tag,
      (replies) => answer({ status: 'ok', reply: { exec: wireReply(replies.exec), queued: replies.queued.map(wireReply) } }),
      (message) => answer({ status: 'error', message }),
    );
  }

  /** Pub/sub on the client's connection: renewed after a reconnect, as ioredis' autoResubscribe. */
  private subscribe(b: Bridge, conn: number, channel: string, sub: number): void {
    const key = `${b.id}/${sub}\u0000${channel}`;
    const connection = this.connectionOf(b, conn, b.cfg.get(conn) ?? DEFAULT_CONFIG);
    this.subscriptions.get(key)?.();
    this.subscriptions.set(
      key,
      connection.subscribe(channel, (message) => {
        if (this.live(b.id)) this.deliver(b, { op: 'message', client: b.id, sub, channel, message });
      }),
    );
  }

  /**
   * The process learned of a new primary. A connection still open to the old one stays there
   * (ioredis keeps a connection until it closes: Sentinel's CLIENT KILL on the demoted node, a
   * dead server), unless the client follows announcements: ioredis' Sentinel
   * `failoverDetector: true` (5.11.1 SentinelConnector/FailoverDetector.ts: +switch-master ->
   * disconnect, then reconnect), or on a Cluster, where the model's single client stands for a
   * cluster client that re-reads the slot map (ioredis Cluster refreshes it on MOVED and
   * CLUSTERDOWN): those reconnect to the new primary.
   */
  private primarySwitched(host: ClientHost): void {
    const b = this.bridges.get(host);
    if (!b || !this.live(b.id)) return;
    for (const [conn, c] of b.connections) {
      if (this.topology === 'cluster' || b.cfg.get(conn)?.failoverDetector) c.reconnect();
    }
  }

  /**
   * A user timer: a thread of the client process due when its clock has advanced `ms`. Its
   * arming is stale once the timer is re-armed (an interval) or cleared (the realm sets the
   * handle's arming to -1).
   */
  private timer(b: Bridge, timer: TimerHandle, ms: number): void {
    if (timer.arming === -1) return; // cleared before it was armed
    timer.arming = 0; // a re-armed interval: the earlier arming is stale
    if (!this.live(b.id)) return;
    const delayUs = this.localToSimUs(b.host, ms);
    const arming = ++this.armings;
    timer.arming = arming;
    const group = b.host.group;
    // Armed now, in the call that set it, as Node arms a timer (lib/timers.js, Node 20: a new
    // timer goes into its list in that call); its wake-up delayUs later is dropped once stale.
    const wake = (): void => {
      if (timer.arming !== arming || OwnCodeRuntime.notNow(group, wake)) return;
      timer.arming = 0;
      if (!this.live(b.id)) return;
      this.send({ op: 'fire', client: b.id, timer });
    };
    this.sim.schedule(delayUs, wake);
  }

  /** Simulated microseconds for `ms` of the client's clock (a fast clock fires its timers sooner). */
  private localToSimUs(host: ClientHost, ms: number): number {
    const rate = 1 + host.clock.driftPpm / 1e6;
    return Math.max(0, Math.ceil((ms * 1000) / rate));
  }
}
