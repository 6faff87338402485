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
 * User code runs only inside `UserThread.call`, at the simulated instant of the event that
 * called it, so what it does is stamped with that instant.
 */
import type { Process, ProcessGenerator } from '../engine/process.js';
import { Signal, SignalWait, TIMED_OUT } from '../engine/signal.js';
import type { Simulation } from '../engine/simulation.js';
import type { ClientHost } from '../world/client-host.js';
import type { EachOutcome } from '../world/effects.js';
import { isErrorReply, RedisErrorReply, type RedisReply } from '../world/redis/reply.js';
import type { RedisNode } from '../world/redis/node.js';
import type { OwnLockOptions } from './contract.js';
import { installLua } from './install-lua.js';
import { userThread, type UserThread, type WorkerAction } from './user-thread.js';

/** What a user call settled with, as the protocol reads it. */
export type Settled =
  | { ok: true; value: number | boolean | null }
  | { ok: false; error: { message: string; name: string; timeout: boolean } };

export interface ModuleSpec {
  /** Absolute path of the module. */
  file: string;
  exportName: string;
}

interface Bridge {
  id: number;
  host: ClientHost;
  incarnation: number;
}

/** Something user code did that the history should show (an exception outside acquire/release). */
export type UncaughtHook = (client: string, message: string) => void;

/** A reply as it travels to the user thread: errors as their message. */
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
  private readonly thread: UserThread;
  private readonly bridges = new Map<ClientHost, Bridge>();
  private readonly byId = new Map<number, Bridge>();
  private readonly calls = new Map<number, Signal<Settled>>();
  private readonly timers = new Map<number, Process<void>>();
  private readonly subscriptions = new Map<string, () => void>();
  private nextCall = 1;
  private nextClient = 1;
  private started = false;
  onUncaught: UncaughtHook | null = null;

  constructor(
    private readonly sim: Simulation,
    private readonly module: ModuleSpec,
    private readonly options: OwnLockOptions,
    /** Independent masters: one client per master over ioredis connections. */
    private readonly independent: boolean,
  ) {
    installLua();
    this.thread = userThread();
  }

  acquire(host: ClientHost, tag: string, key: string): Signal<Settled> {
    return this.invoke(host, { op: 'acquire', tag, key });
  }

  release(host: ClientHost, tag: string, handle: number, key: string): Signal<Settled> {
    return this.invoke(host, { op: 'release', tag, handle, key });
  }

  private invoke(host: ClientHost, message: { op: string; tag: string; key?: string; handle?: number }): Signal<Settled> {
    const bridge = this.bridgeFor(host);
    const call = this.nextCall++;
    const signal = new Signal<Settled>('own-code call');
    this.calls.set(call, signal);
    this.send({ ...message, client: bridge.id, call });
    return signal;
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    const seed = Math.floor(this.sim.random.fork('own-code').next() * 2 ** 32);
    const answer = this.send({ op: 'start-run', file: this.module.file, exportName: this.module.exportName, options: this.options, seed });
    const result = answer as { ok: boolean; message?: string } | null;
    if (!result?.ok) throw new Error(`lock module ${this.module.file}: ${result?.message ?? 'failed to load'}`);
  }

  /** The user-side client of this process; a process that crashed and restarted gets a new one. */
  private bridgeFor(host: ClientHost): Bridge {
    this.start();
    const known = this.bridges.get(host);
    if (known && known.incarnation === host.incarnation) return known;
    if (known) this.send({ op: 'kill', client: known.id });
    const bridge: Bridge = { id: this.nextClient++, host, incarnation: host.incarnation };
    this.bridges.set(host, bridge);
    this.byId.set(bridge.id, bridge);
    // A stream per client process and incarnation: Math.random, crypto.randomBytes/randomUUID. lock-sim: wall-clock ok (seeded replacements)
    const seed = Math.floor(this.sim.random.fork(`own-code/${host.name}#${host.incarnation}`).next() * 2 ** 32);
    const connections = this.independent ? host.lockNodes.length : 1;
    this.send({ op: 'client', client: bridge.id, name: host.name, connections, seed, wallMs: host.clock.nowMs(), monoMs: host.clock.nowUs() / 1000 });
    return bridge;
  }

  /** Calls the user thread with the clocks of every client as they read now, then does what it asked. */
  private send(message: object): unknown {
    const clocks: Array<[number, number, number]> = [];
    for (const b of this.bridges.values()) clocks.push([b.id, b.host.clock.nowMs(), b.host.clock.nowUs() / 1000]);
    const answer = this.thread.call({ ...message, simMs: this.sim.nowUs / 1000, clocks });
    for (const action of answer.actions) this.perform(action);
    return answer.result;
  }

  private live(id: number): Bridge | null {
    const b = this.byId.get(id);
    if (!b || b.incarnation !== b.host.incarnation || !b.host.up) return null;
    return b;
  }

  private perform(a: WorkerAction): void {
    switch (a.kind) {
      case 'settled':
        this.calls.get(a.call)?.fire(a.ok ? { ok: true, value: a.value } : { ok: false, error: a.error });
        this.calls.delete(a.call);
        return;
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
        this.timer(a.id, a.client, a.ms);
        return;
      case 'clear':
        this.timers.get(a.id)?.kill();
        this.timers.delete(a.id);
        return;
      case 'subscribe': {
        const b = this.live(a.client);
        if (b) this.subscribe(b, a.conn, a.channel, a.sub);
        return;
      }
      case 'unsubscribe': {
        const key = `${a.sub}\u0000${a.channel}`;
        this.subscriptions.get(key)?.();
        this.subscriptions.delete(key);
        return;
      }
      case 'uncaught': {
        const b = this.byId.get(a.client);
        this.onUncaught?.(b?.host.name ?? 'lock module', `${a.error.name}: ${a.error.message}`);
        return;
      }
    }
  }

  private nodeFor(b: Bridge, conn: number): RedisNode {
    return this.independent ? b.host.lockNodes[conn] : b.host.primaryView;
  }

  /** Delivers something to user code as the client process: held while it is paused, never after it died. */
  private deliver(b: Bridge, name: string, message: object): void {
    const self = this;
    function* handler(): ProcessGenerator<void> {
      yield 0;
      if (self.live(b.id)) self.send(message);
    }
    this.sim.spawn(`${b.host.name}/${name}`, handler(), b.host.group);
  }

  private command(b: Bridge, a: Extract<WorkerAction, { kind: 'cmd' }>): void {
    const node = this.nodeFor(b, a.conn);
    const host = b.host;
    const timeoutUs = a.timeoutMs === null ? null : this.localToSimUs(host, a.timeoutMs);
    if (this.independent) {
      // node-redlock's ioredis connections (ioredis-connection.ts); commandTimeout as ioredis 5 does it.
      let answered = false;
      host.ioredisTo(node).send(a.args, a.tag, (outcome) => {
        if (answered) return;
        answered = true;
        this.deliver(b, 'reply', { op: 'reply', id: a.id, outcome: wire(outcome) });
      });
      if (timeoutUs !== null) {
        const self = this;
        this.sim.spawn(`${host.name}/command-timeout`, (function* (): ProcessGenerator<void> {
          yield timeoutUs;
          if (answered) return;
          answered = true;
          if (self.live(b.id)) self.send({ op: 'reply', id: a.id, outcome: { status: 'timeout' } });
        })(), host.group);
      }
      return;
    }
    const reply = host.sendCommand(node, a.args, a.tag);
    const self = this;
    this.sim.spawn(`${host.name}/reply`, (function* (): ProcessGenerator<void> {
      const r = yield timeoutUs === null ? reply : new SignalWait(reply, timeoutUs);
      if (!self.live(b.id)) return;
      self.send({ op: 'reply', id: a.id, outcome: r === TIMED_OUT ? { status: 'timeout' } : wire({ status: 'ok', reply: r as RedisReply }) });
    })(), host.group);
  }

  /**
   * MULTI ... EXEC: the commands reach the node in one message and run there one after the
   * other at that instant, so no other client's command comes between them (redis 7.0.15
   * multi.c execCommand runs the queue without yielding). Errors are per command, as EXEC
   * answers runtime errors; queue-time errors (EXECABORT) are not modelled. For independent
   * masters the commands go over the ioredis connection one by one.
   */
  private batch(b: Bridge, a: Extract<WorkerAction, { kind: 'batch' }>): void {
    const node = this.nodeFor(b, a.conn);
    const host = b.host;
    const timeoutUs = a.timeoutMs === null ? null : this.localToSimUs(host, a.timeoutMs);
    const done = new Signal<RedisReply>('exec');
    if (this.independent) {
      const replies: RedisReply[] = [];
      a.commands.forEach((args) => host.ioredisTo(node).send(args, a.tag, (o) => {
        replies.push(o.status === 'ok' ? o.reply : new RedisErrorReply(o.message));
        if (replies.length === a.commands.length) done.fire(replies);
      }));
    } else {
      const link = host.connectionTo(node);
      const incarnation = host.incarnation;
      link.deliver(() => {
        const replies: RedisReply[] = [];
        for (const args of a.commands) node.execute(args, a.tag, (r) => replies.push(r));
        link.back.send(() => {
          if (host.incarnation === incarnation) done.fire(replies);
        });
      });
    }
    const self = this;
    this.sim.spawn(`${host.name}/exec`, (function* (): ProcessGenerator<void> {
      const r = yield timeoutUs === null ? done : new SignalWait(done, timeoutUs);
      if (!self.live(b.id)) return;
      self.send({ op: 'reply', id: a.id, outcome: r === TIMED_OUT ? { status: 'timeout' } : wire({ status: 'ok', reply: r as RedisReply }) });
    })(), host.group);
  }

  /** Pub/sub on the node the client talks to: SUBSCRIBE travels there, messages travel back. */
  private subscribe(b: Bridge, conn: number, channel: string, sub: number): void {
    const node = this.nodeFor(b, conn);
    const link = b.host.connectionTo(node);
    const key = `${sub}\u0000${channel}`;
    let cancelled = false;
    let unsubscribe: (() => void) | null = null;
    this.subscriptions.set(key, () => {
      cancelled = true;
      unsubscribe?.();
    });
    link.out.send(() => {
      if (cancelled || !node.up) return;
      unsubscribe = node.subscribe(channel, (_channel, message) =>
        link.back.send(() => {
          if (this.live(b.id)) this.deliver(b, 'message', { op: 'message', sub, channel, message });
        }),
      );
    });
  }

  /** A user timer: a thread of the client process due when its clock has advanced `ms`. */
  private timer(id: number, client: number, ms: number): void {
    this.timers.get(id)?.kill();
    const b = client === -1 ? null : this.live(client);
    if (client !== -1 && !b) return;
    const delayUs = b ? this.localToSimUs(b.host, ms) : ms * 1000;
    const self = this;
    const me: { p: Process<void> | null } = { p: null };
    const p = this.sim.spawn(`${b?.host.name ?? 'lock module'}/timer`, (function* (): ProcessGenerator<void> {
      yield delayUs;
      if (self.timers.get(id) !== me.p) return;
      self.timers.delete(id);
      if (b && !self.live(b.id)) return;
      self.send({ op: 'fire', id });
    })(), b?.host.group ?? null);
    me.p = p;
    this.timers.set(id, p);
  }

  /** Simulated microseconds for `ms` of the client's clock (a fast clock fires its timers sooner). */
  private localToSimUs(host: ClientHost, ms: number): number {
    const rate = 1 + host.clock.driftPpm / 1e6;
    return Math.max(0, Math.ceil((ms * 1000) / rate));
  }
}
