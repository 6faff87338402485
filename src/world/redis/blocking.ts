/**
 * Clients blocked by BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP, BZPOPMIN, BZPOPMAX and BZMPOP on
 * one node, as redis 7.0.15 keeps them (src/blocked.c, timeout.c):
 * - a client blocks on each of its keys, after the clients already blocked there;
 * - a write that creates a list or a sorted set at a key someone waits for marks the key ready
 *   (db.c dbAdd -> signalKeyAsReady); once the command (or MULTI/EXEC, or script) ends, each
 *   ready key serves its clients in the order they blocked, while it has elements
 *   (handleClientsBlockedOnKeys; a list serves list clients, a sorted set sorted-set clients,
 *   the others keep waiting); a BLMOVE that pushes makes its destination ready in turn;
 * - a BLMOVE whose destination turned into another type is answered WRONGTYPE when served, and
 *   nothing moves (t_list.c serveClientBlockedOnList);
 * - the timeout is an absolute deadline on the server's clock (timeout.c
 *   getTimeoutFromObjectOrReply); it is checked before the server sleeps, after any event, and
 *   answers once the clock has passed it (checkBlockedClientTimeout: `timeout < now`). An idle
 *   server wakes every 1000/hz ms for serverCron (hz 10): measured on redis-server 7.0.15,
 *   `BLPOP k 0.01` answered after 0.10 s, 0.123 after 0.20 s, 0.5 after 0.60 s. The model runs
 *   the check after every command and at every 100 ms tick from the node's start;
 * - a primary turned replica answers every blocked client "UNBLOCKED force unblock from blocking
 *   operation, instance state changed (master -> replica?)" and closes its connection
 *   (disconnectAllBlockedClients); a crash drops them; a closed connection unblocks silently;
 *   CLIENT UNBLOCK answers the timeout reply or "UNBLOCKED client unblocked via CLIENT UNBLOCK".
 * A blocked client's later commands wait in its session (session.ts) and run once it is free.
 */
import type { Simulation } from '../../engine/simulation.js';
import type { LocalClock } from '../clock.js';
import type { Keyspace } from './keyspace.js';
import { listAt, popOne, popRangeWithKey, pushMoved, type ListBlock } from './list-commands.js';
import { RedisErrorReply, type RedisReply } from './reply.js';
import { answer, type ReplyTo } from './reply-to.js';
import type { ClientSession } from './session.js';
import { RedisList, RedisZset } from './collection-values.js';
import { serveZsetBlock, type ZsetBlock } from './zset-commands.js';

/** serverCron's period at the default hz 10 (redis 7.0.15 config.c). */
const CRON_PERIOD_US = 100_000;

export interface Blocked {
  session: ClientSession;
  tag: string;
  reply: ReplyTo;
  list: ListBlock | null;
  zset: ZsetBlock | null;
  /** WAIT: answered by the node; here only for CLIENT UNBLOCK and a demotion. */
  wait: { timeoutReply: () => RedisReply; cancel: () => void } | null;
  /** The deadline on the node's clock in ms, or null (timeout 0: none). A past deadline (negative: wrapped) is due at once. */
  deadlineMs: number | null;
}

export class BlockedClients {
  private readonly byKey = new Map<string, Blocked[]>();
  private readonly ready: string[] = [];
  private readonly readySet = new Set<string>();
  /** Every blocked client with a deadline, oldest first. */
  private readonly timed: Blocked[] = [];
  /** Sessions unblocked while serving: their queued commands run after it. */
  private readonly freed: ClientSession[] = [];
  /** Where serverCron ticks from (the node's start). */
  private cronOriginUs: number;

  constructor(
    private readonly sim: Simulation,
    private readonly clock: LocalClock,
    private readonly ks: Keyspace,
    /** Runs `fn` when the node is awake (RedisNode.whenAwake: later while DEBUG SLEEP lasts, never once it is dead). */
    private readonly whenAwake: (fn: () => void) => void,
  ) {
    this.cronOriginUs = sim.nowUs;
  }

  /** Whether a key is ready, a timeout may be due or a freed client has commands queued (checked after every command: three field reads). */
  get busy(): boolean {
    return this.ready.length > 0 || this.timed.length > 0 || this.freed.length > 0;
  }

  /** Whether any client waits for a key (a write then checks whether it made the key ready). */
  get busyKeys(): boolean {
    return this.byKey.size > 0;
  }

  /** The node (re)started: serverCron ticks from now. */
  restarted(): void {
    this.cronOriginUs = this.sim.nowUs;
  }

  /** Blocks a list or sorted-set command that found nothing. */
  block(b: Blocked): void {
    b.session.blocked = b;
    const keys = b.list?.keys ?? b.zset?.keys ?? [];
    for (const key of new Set(keys)) {
      let waiting = this.byKey.get(key);
      if (!waiting) this.byKey.set(key, (waiting = []));
      waiting.push(b);
    }
    if (b.deadlineMs !== null) {
      this.timed.push(b);
      this.scheduleCheck(b.deadlineMs);
    }
  }

  /** A WAIT that blocked a session: the session holds it; no keys. */
  blockWait(b: Blocked): void {
    b.session.blocked = b;
  }

  /** db.c signalKeyAsReady: a list or sorted set was written at `key`. */
  keyWritten(key: string): void {
    if (this.byKey.has(key) && !this.readySet.has(key)) {
      this.readySet.add(key);
      this.ready.push(key);
    }
  }

  /** After a command: serve the ready keys, then the due timeouts, then the freed clients' queued commands. */
  afterCommand(): void {
    while (this.ready.length > 0) {
      const key = this.ready.shift() as string;
      this.readySet.delete(key);
      this.serveKey(key);
    }
    this.expireDue();
    this.runFreed();
  }

  private serveKey(key: string): void {
    const e = this.ks.lookup(key);
    if (e === undefined) return;
    const waiting = [...(this.byKey.get(key) ?? [])];
    for (const b of waiting) {
      const value = this.ks.lookup(key)?.value;
      if (value instanceof RedisList && b.list !== null) {
        this.finish(b, this.serveList(key, value, b.list, b.tag));
      } else if (value instanceof RedisZset && b.zset !== null) {
        this.finish(b, serveZsetBlock(this.ks, key, value, b.zset, b.tag));
      } else if (value === undefined) return;
    }
  }

  /** t_list.c serveClientBlockedOnList. */
  private serveList(key: string, list: RedisList, block: ListBlock, tag: string): RedisReply {
    if (block.target === null) {
      if (block.count !== -1) return popRangeWithKey(this.ks, key, list, block.where, block.count, tag);
      return [key, popOne(this.ks, key, list, block.where, tag)];
    }
    const dst = listAt(this.ks, block.target.key);
    if (dst instanceof RedisErrorReply) return dst;
    const value = (block.where === 'left' ? list.items.shift() : list.items.pop()) as string;
    pushMoved(this.ks, block.target.key, block.target.key === key ? list : dst, value, block.target.where, tag);
    if (block.target.key !== key) {
      if (list.items.length === 0) this.ks.remove(key, 'delete', tag);
      else this.ks.touched(key, tag);
    }
    return value;
  }

  /** Answers a blocked client and frees it. */
  private finish(b: Blocked, reply: RedisReply): void {
    this.release(b);
    answer(b.reply, reply);
  }

  /** Takes `b` off its keys and the timeout list; its session is free (its queued commands run after the current work). */
  release(b: Blocked): void {
    if (b.session.blocked === b) b.session.blocked = null;
    const keys = b.list?.keys ?? b.zset?.keys ?? [];
    for (const key of new Set(keys)) {
      const waiting = this.byKey.get(key);
      if (!waiting) continue;
      const i = waiting.indexOf(b);
      if (i >= 0) waiting.splice(i, 1);
      if (waiting.length === 0) this.byKey.delete(key);
    }
    const t = this.timed.indexOf(b);
    if (t >= 0) this.timed.splice(t, 1);
    this.freed.push(b.session);
  }

  /** Runs what freed sessions queued while blocked (blocked.c processUnblockedClients). */
  runFreed(): void {
    while (this.freed.length > 0) {
      const session = this.freed.shift() as ClientSession;
      while (session.blocked === null && !session.closed && session.pending.length > 0) (session.pending.shift() as () => void)();
    }
  }

  /** timeout.c handleBlockedClientsTimeout: every client whose deadline the clock has passed gets its timeout reply. */
  expireDue(): void {
    if (this.timed.length === 0) return;
    const now = this.clock.nowMs();
    for (const b of [...this.timed]) {
      if (b.deadlineMs !== null && b.deadlineMs < now && b.session.blocked === b) this.timeout(b);
    }
  }

  /** replyToBlockedClientTimedOut: a null array for the pops (a WAIT answers its count). */
  timeout(b: Blocked): void {
    if (b.wait !== null) {
      b.wait.cancel();
      this.release(b);
      answer(b.reply, b.wait.timeoutReply());
      return;
    }
    this.finish(b, null);
  }

  /** CLIENT UNBLOCK: the timeout reply, or the UNBLOCKED error. */
  unblock(b: Blocked, withError: boolean): void {
    if (!withError) return this.timeout(b);
    b.wait?.cancel();
    this.finish(b, new RedisErrorReply('UNBLOCKED client unblocked via CLIENT UNBLOCK'));
  }

  /** The serverCron tick after which the clock has passed `deadlineMs`: check then. */
  private scheduleCheck(deadlineMs: number): void {
    const sim = this.sim;
    let due = sim.nowUs;
    if (deadlineMs >= this.clock.nowMs()) {
      // A deadline beyond 2^53 us is never reached by a run.
      if ((deadlineMs + 1) * 1000 > Number.MAX_SAFE_INTEGER) return;
      due = Math.max(sim.nowUs, this.clock.simTimeAt((deadlineMs + 1) * 1000));
    }
    const ticks = Math.ceil((due - this.cronOriginUs) / CRON_PERIOD_US);
    const at = this.cronOriginUs + Math.max(ticks, 0) * CRON_PERIOD_US;
    sim.scheduleAt(Math.max(at, sim.nowUs), () =>
      this.whenAwake(() => {
        this.expireDue();
        this.runFreed();
      }),
    );
  }

  /** The clock was stepped or its rate changed: the deadlines fall on other ticks. */
  clockChanged(): void {
    for (const b of this.timed) if (b.deadlineMs !== null) this.scheduleCheck(b.deadlineMs);
  }

  /** Every blocked client of a session that has one, in blocking order (demotion, crash). */
  all(): Blocked[] {
    const seen = new Set<Blocked>();
    for (const waiting of this.byKey.values()) for (const b of waiting) seen.add(b);
    return [...seen];
  }

  /** kill -9: everything blocked is gone, unanswered. */
  clear(): void {
    this.byKey.clear();
    this.ready.length = 0;
    this.readySet.clear();
    this.timed.length = 0;
    this.freed.length = 0;
  }
}
