/**
 * A Redis server: a keyspace judged by the node's own clock, a role (primary or replica),
 * pub/sub, WAIT, EVAL of the built-in scripts, and active expiry. Commands run atomically
 * at the instant they arrive; the network and the client decide when that is.
 */
import type { Simulation } from '../../engine/simulation.js';
import type { LocalClock } from '../clock.js';
import { executeKeyspaceCommand, WRITE_COMMANDS } from './commands.js';
import { cloneEntry, Keyspace, type Entry, type KeyChange } from './keyspace.js';
import { ERR_NOT_INTEGER, parseInteger, RedisErrorReply, wrongArgs, type RedisReply } from './reply.js';
import type { ReplicationLink } from './replication.js';
import { findScript } from './scripts.js';
import { ScriptCache, userScriptRunner } from './user-scripts.js';

export type RedisRole = 'primary' | 'replica';

/** INFO section names whose output holds the replication section (server.c genRedisInfoString). */
const INFO_WITH_REPLICATION = new Set(['default', 'all', 'everything', 'replication']);

const ERR_WAIT_ON_REPLICA = new RedisErrorReply(
  'ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to replicas are just local and are not propagated.',
);
export type Subscriber = (channel: string, message: string) => void;

/** A blocked WAIT; it is answered once, then leaves `waits`. */
interface WaitRequest {
  targetOffset: number;
  needed: number;
  reply: (r: RedisReply) => void;
}

export class RedisNode {
  readonly keyspace: Keyspace;
  role: RedisRole = 'primary';
  up = true;
  /** run_id of the current process (redis server.c: random, new at every start); the deployment draws it. */
  runId = '';
  /** For a primary: writes emitted to the replication stream. For a replica: writes applied. */
  replicationOffset = 0;
  readonly replicaLinks: ReplicationLink[] = [];
  /** Called for every key change; the runner records lock keys into the history. */
  observer: ((node: RedisNode, change: KeyChange) => void) | null = null;
  /**
   * Why this primary refuses writes right now, or null (min-replicas-to-write not met,
   * a cluster master cut off from the majority). Set by the deployment.
   */
  writeRefusal: (() => string | null) | null = null;
  /** DEBUG SLEEP: commands that arrive while paused run, in order, when it wakes. */
  private pausedQueue: Array<() => void> | null = null;
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private waits: WaitRequest[] = [];
  /** Client TCP connections this process accepted (tcp.ts); kill -9 closes them all. */
  private readonly sockets = new Set<() => void>();
  /** Scripts user code loaded or ran (user-scripts.ts); the built-in ones are always known. */
  readonly scriptCache = new ScriptCache();

  constructor(
    readonly name: string,
    private readonly sim: Simulation,
    readonly clock: LocalClock,
  ) {
    this.keyspace = new Keyspace(() => clock.nowMs());
    this.keyspace.onChange = (change) => this.onKeyChange(change);
  }

  /**
   * Executes one command from a client. `reply` is called once, now or later (WAIT);
   * never when the node is down (the client's timeout covers that).
   */
  execute(args: readonly string[], tag: string, reply: (r: RedisReply) => void): void {
    if (!this.up) return;
    if (this.pausedQueue !== null) {
      this.pausedQueue.push(() => this.execute(args, tag, reply));
      return;
    }
    const name = args[0].toUpperCase();
    if (name === 'WAIT') return this.wait(args, reply);
    const writes = WRITE_COMMANDS.has(name) || name === 'EVAL' || name === 'EVALSHA';
    if (writes && this.role === 'replica') {
      return reply(new RedisErrorReply("READONLY You can't write against a read only replica."));
    }
    if (writes && this.writeRefusal) {
      const refusal = this.writeRefusal();
      if (refusal !== null) return reply(new RedisErrorReply(refusal));
    }
    if (name === 'PUBLISH') {
      if (args.length !== 3) return reply(wrongArgs(name));
      return reply(this.publish(args[1], args[2]));
    }
    if (name === 'EVAL' || name === 'EVALSHA') return reply(this.eval(args, tag));
    if (name === 'INFO') return reply(this.info(args));
    if (name === 'SCRIPT') return reply(this.scriptCache.command(args));
    reply(executeKeyspaceCommand(this.keyspace, args, tag));
  }


  /**
   * INFO [section]: the replication section, the one lock clients read (Redisson's
   * syncedEval takes `connected_slaves` from it for WAIT). Lines as Redis 7 prints them
   * (`server.c` genRedisInfoString), CRLF-separated; other sections are empty here.
   */
  private info(args: readonly string[]): RedisReply {
    // Redis 7 takes several section names (server.c genInfoSectionDict); none means "default".
    if (args.length > 1 && !args.some((s, i) => i > 0 && INFO_WITH_REPLICATION.has(s.toLowerCase()))) return '';
    const lines = ['# Replication'];
    if (this.role === 'primary') {
      lines.push('role:master', `connected_slaves:${this.connectedReplicas()}`, `master_repl_offset:${this.replicationOffset}`);
    } else {
      lines.push('role:slave', `slave_repl_offset:${this.replicationOffset}`);
    }
    return `${lines.join('\r\n')}\r\n`;
  }

  /**
   * Replicas this primary counts as connected (INFO replication `connected_slaves`, the
   * length of its replica list: redis 7.0.15 `server.c` genRedisInfoString). A replica
   * leaves the list when its connection closes or after `repl-timeout` without a word from
   * it, so one that is partitioned away or re-pointed by a failover this primary cannot hear
   * about still counts until then.
   */
  connectedReplicas(): number {
    let n = 0;
    for (const link of this.replicaLinks) if (link.listed) n++;
    return n;
  }

  subscribe(channel: string, subscriber: Subscriber): () => void {
    let set = this.subscribers.get(channel);
    if (!set) {
      set = new Set();
      this.subscribers.set(channel, set);
    }
    set.add(subscriber);
    return () => set.delete(subscriber);
  }

  publish(channel: string, message: string): number {
    const set = this.subscribers.get(channel);
    if (!set) return 0;
    for (const s of set) s(channel, message);
    return set.size;
  }

  /**
   * A client's TCP handshake reaches this server: refused (false) when no process listens;
   * otherwise `onClose` runs when this process dies, whose kernel then closes the socket.
   * A sleeping server (DEBUG SLEEP) still accepts: the kernel completes the handshake.
   */
  acceptConnection(onClose: () => void): boolean {
    if (!this.up) return false;
    this.sockets.add(onClose);
    return true;
  }

  /** A client closed its end: forget the socket. */
  forgetConnection(onClose: () => void): void {
    this.sockets.delete(onClose);
  }

  /** kill -9 of the server process: no more replies, subscriptions, blocked WAITs and client sockets are gone. */
  crash(): void {
    this.up = false;
    this.pausedQueue = null;
    this.subscribers.clear();
    this.waits = [];
    const sockets = [...this.sockets];
    this.sockets.clear();
    for (const close of sockets) close();
  }

  get paused(): boolean {
    return this.pausedQueue !== null;
  }

  /** DEBUG SLEEP: the server stops serving anything (commands, expiry, replication). */
  pause(): void {
    if (this.pausedQueue === null) this.pausedQueue = [];
  }

  /** Wakes up and serves what queued meanwhile, in arrival order; expiry catches up. */
  resume(): void {
    const queued = this.pausedQueue;
    if (queued === null) return;
    this.pausedQueue = null;
    if (!this.up) return;
    this.rescheduleExpiries();
    for (const run of queued) run();
  }

  /**
   * The node's clock was stepped or its rate changed: TTL deadlines now fall due at other
   * instants. Expiry is replanned and lock keys are reported again with their new fate.
   */
  clockChanged(): void {
    if (!this.up) return;
    for (const key of this.keyspace.keys()) {
      const entry = this.keyspace.rawGet(key);
      if (!entry || entry.expireAtMs === null) continue;
      if (this.role === 'primary') this.scheduleExpiry(key, entry.expireAtMs);
      this.observer?.(this, { key, entry, cause: 'clock', byTag: '', previousHolder: entry.holderTag });
    }
  }

  /** Comes back up; without persistence the dataset is empty (Redis default: appendonly no). */
  restart(keepData: boolean): void {
    this.up = true;
    this.scriptCache.clear();
    if (!keepData) this.keyspace.clear();
    else this.rescheduleExpiries();
  }

  /** Becomes a primary (REPLICAOF NO ONE): keeps its data and starts expiring keys itself. */
  promote(): void {
    this.role = 'primary';
    this.keyspace.deletesExpiredKeys = true;
    this.replicationOffset = 0;
    this.rescheduleExpiries();
  }

  /** Becomes a replica (REPLICAOF host port): discards its dataset and copies the primary's. */
  demoteToReplicaOf(primary: RedisNode): void {
    this.role = 'replica';
    this.keyspace.deletesExpiredKeys = false;
    this.keyspace.clear();
    for (const key of primary.keyspace.keys()) this.keyspace.rawSet(key, cloneEntry(primary.keyspace.rawGet(key) as Entry));
    this.replicationOffset = 0;
  }

  /**
   * Runs `fn` now, or when a DEBUG SLEEP ends (in arrival order with queued commands), and
   * never on a dead node: what reaches the process outside a client command (REPLICAOF from
   * Sentinel, a cluster bus message, the replication stream).
   */
  whenAwake(fn: () => void): void {
    if (!this.up) return;
    if (this.pausedQueue !== null) {
      this.pausedQueue.push(() => this.whenAwake(fn));
      return;
    }
    fn();
  }

  /** @internal the replication stream delivered one key state. */
  applyReplicated(key: string, entry: ReturnType<Keyspace['rawGet']>, offset: number): void {
    if (!this.up || this.role !== 'replica') return;
    this.keyspace.rawSet(key, entry);
    this.replicationOffset = offset;
  }

  /** @internal a replica acknowledged `offset`; wake WAITs that are now satisfied. */
  onReplicaAck(): void {
    if (this.waits.length === 0) return;
    const answered = this.waits.filter((w) => this.ackedReplicas(w.targetOffset) >= w.needed);
    this.waits = this.waits.filter((w) => !answered.includes(w));
    for (const w of answered) w.reply(this.ackedReplicas(w.targetOffset));
  }

  /** Listed replicas that acknowledged `offset` (redis 7.0.15 replicationCountAcksByOffset). */
  private ackedReplicas(offset: number): number {
    let n = 0;
    for (const link of this.replicaLinks) if (link.listed && link.ackedOffset >= offset) n++;
    return n;
  }

  /** WAIT numreplicas timeout, checked in the order of redis 7.0.15 `replication.c` waitCommand. */
  private wait(args: readonly string[], reply: (r: RedisReply) => void): void {
    if (args.length !== 3) return reply(wrongArgs('WAIT'));
    if (this.role === 'replica') return reply(ERR_WAIT_ON_REPLICA);
    const needed = parseInteger(args[1]);
    if (needed === null) return reply(ERR_NOT_INTEGER);
    // timeout.c getTimeoutFromObjectOrReply.
    const timeoutMs = parseInteger(args[2]);
    if (timeoutMs === null) return reply(new RedisErrorReply('ERR timeout is not an integer or out of range'));
    if (timeoutMs < 0) return reply(new RedisErrorReply('ERR timeout is negative'));
    const targetOffset = this.replicationOffset;
    const acked = this.ackedReplicas(targetOffset);
    if (acked >= needed) return reply(acked);
    const request: WaitRequest = { targetOffset, needed, reply };
    this.waits.push(request);
    // WAIT with timeout 0 blocks forever. One answered already, or dropped by a crash, is no
    // longer in `waits`.
    if (timeoutMs > 0) {
      this.sim.schedule(timeoutMs * 1000, () => {
        if (!this.waits.includes(request)) return;
        this.waits = this.waits.filter((w) => w !== request);
        request.reply(this.ackedReplicas(targetOffset));
      });
    }
  }

  private eval(args: readonly string[], tag: string): RedisReply {
    if (args.length < 3) return wrongArgs(args[0]);
    const isSha = args[0].toUpperCase() === 'EVALSHA';
    const script = findScript(args[1], isSha);
    if (script instanceof RedisErrorReply) {
      const reply = this.userScript(args, isSha, tag);
      return reply === undefined ? script : reply;
    }
    // redis 7.0.15 eval.c evalGenericCommand.
    const numKeys = parseInteger(args[2]);
    if (numKeys === null) return ERR_NOT_INTEGER;
    if (numKeys > args.length - 3) return new RedisErrorReply("ERR Number of keys can't be greater than number of args");
    if (numKeys < 0) return new RedisErrorReply("ERR Number of keys can't be negative");
    const keys = args.slice(3, 3 + numKeys);
    const argv = args.slice(3 + numKeys);
    return script.native({ keyspace: this.keyspace, publish: (c, m) => this.publish(c, m), tag }, keys, argv);
  }

  /** A script that is not built in, run by the Lua VM when one is installed (undefined: none is, or NOSCRIPT). */
  private userScript(args: readonly string[], isSha: boolean, tag: string): RedisReply | undefined {
    const run = userScriptRunner();
    if (run === null) return undefined;
    const lua = isSha ? this.scriptCache.get(args[1]) : args[1];
    if (lua === undefined) return undefined; // NOSCRIPT, from findScript
    const numKeys = parseInteger(args[2]);
    if (numKeys === null) return ERR_NOT_INTEGER;
    if (numKeys > args.length - 3) return new RedisErrorReply("ERR Number of keys can't be greater than number of args");
    if (numKeys < 0) return new RedisErrorReply("ERR Number of keys can't be negative");
    const sha = isSha ? args[1].toLowerCase() : this.scriptCache.add(lua);
    return run(lua, sha, args.slice(3, 3 + numKeys), args.slice(3 + numKeys), (a) => {
      if (a[0].toUpperCase() === 'PUBLISH') return a.length === 3 ? this.publish(a[1], a[2]) : wrongArgs('PUBLISH');
      return executeKeyspaceCommand(this.keyspace, a, tag);
    });
  }

  private onKeyChange(change: KeyChange): void {
    if (this.role === 'primary') {
      this.replicationOffset++;
      const snapshot = change.entry ? cloneEntry(change.entry) : undefined;
      for (const link of this.replicaLinks) link.ship(change.key, snapshot, this.replicationOffset);
      if (change.entry?.expireAtMs != null) this.scheduleExpiry(change.key, change.entry.expireAtMs);
    }
    this.observer?.(this, change);
  }

  /** Active expiry: look the key up just after its deadline, which deletes it if still due. */
  private scheduleExpiry(key: string, expireAtMs: number): void {
    const at = this.clock.simTimeAt((expireAtMs + 1) * 1000);
    this.sim.scheduleAt(at, () => {
      if (this.up && !this.paused && this.role === 'primary') this.keyspace.lookup(key);
    });
  }

  private rescheduleExpiries(): void {
    for (const key of this.keyspace.keys()) {
      const e = this.keyspace.rawGet(key);
      if (e?.expireAtMs != null) this.scheduleExpiry(key, e.expireAtMs);
    }
  }
}
