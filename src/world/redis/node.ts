/**
 * A Redis server: a keyspace judged by the node's own clock, a role (primary or replica),
 * pub/sub, WAIT, EVAL of the built-in scripts, and active expiry. Commands run atomically
 * at the instant they arrive; the network and the client decide when that is.
 */
import type { Simulation } from '../../engine/simulation.js';
import type { LocalClock } from '../clock.js';
import { asciiLower, checkShape, commandInfo, fullName, runResolvedKeyspaceCommand, type CommandInfo } from './commands.js';
import { cloneEntry, Keyspace, type Entry, type KeyChange } from './keyspace.js';
import { ERR_NOT_INTEGER, parseInt64, RedisErrorReply, type RedisReply } from './reply.js';
import type { ReplicationLink } from './replication.js';
import { ScriptCallError, scriptCallReply, type ScriptContext } from './script-call.js';
import { userScriptRunner } from './user-scripts.js';
import { ScriptCache } from './script-cache.js';
import { ExpiryQueue } from './expiry-queue.js';
import { builtinScriptByText, runBuiltin } from './scripts.js';
import { runTransaction, type TransactionReplies } from './transaction.js';
import { answer, type ReplyTo } from './reply-to.js';
import { PubSub, type Subscriber } from './pubsub.js';
import { ClientSession } from './session.js';
import { PUBSUB_CONTEXT_COMMANDS, runSessionCommand, SESSION_COMMANDS, subscribedPing, type SessionHost } from './session-commands.js';
import { BlockedClients, type Blocked } from './blocking.js';
import { listBlockOf } from './list-commands.js';
import { zsetBlockOf } from './zset-commands.js';
import { RedisList, RedisZset } from './values.js';

export type RedisRole = 'primary' | 'replica';

/** INFO section names whose output holds the replication section (server.c genRedisInfoString). */
const INFO_WITH_REPLICATION = new Set(['default', 'all', 'everything', 'replication']);

const ERR_WAIT_ON_REPLICA = new RedisErrorReply(
  'ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to replicas are just local and are not propagated.',
);
export type { Subscriber } from './pubsub.js';
export type { ReplyTo } from './reply-to.js';

/** redis 7.0.15 blocked.c disconnectAllBlockedClients: what a primary turned replica answers its blocked clients. */
const ERR_UNBLOCKED_DEMOTED = new RedisErrorReply('UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)');
/** The first client id a fresh server gives a connection (measured on redis-server 7.0.15: ids 1 and 2 go to its internal clients). */
const FIRST_CLIENT_ID = 3;

const ERR_NOSCRIPT = new RedisErrorReply('NOSCRIPT No matching script. Please use EVAL.');
const ERR_READONLY = new RedisErrorReply("READONLY You can't write against a read only replica.");

/**
 * Runs a script body that is not one of the built-in scripts (a Lua VM for user code); its
 * redis.call goes through script-call.ts scriptCall with `ctx`. Without one, such scripts are
 * refused with a lock-sim error.
 */
export type UserScriptRunner = (ctx: ScriptContext, body: string, keys: readonly string[], argv: readonly string[]) => RedisReply;


/** Whether INFO's section names (args[1..]) include one that holds the replication section. */
function asksForReplication(args: readonly string[]): boolean {
  for (let i = 1; i < args.length; i++) if (INFO_WITH_REPLICATION.has(args[i].toLowerCase())) return true;
  return false;
}

/** KEYS and ARGV of the built-in script running now (RedisNode.eval). */
const SCRIPT_KEYS: string[] = [];
const SCRIPT_ARGV: string[] = [];

/** `into` becomes args[from..to) (its backing store kept: length set, not emptied). */
function refill(into: string[], args: readonly string[], from: number, to: number): string[] {
  let n = 0;
  for (let i = from; i < to; i++) into[n++] = args[i];
  into.length = n;
  return into;
}

/** A blocked WAIT; it is answered once, then leaves `waits`. */
interface WaitRequest {
  targetOffset: number;
  needed: number;
  reply: ReplyTo;
}

/** Answers the replies of a session command: the first as the command's reply, the rest as pushes after it. */
function answerAll(reply: ReplyTo, session: ClientSession, replies: readonly RedisReply[]): void {
  answer(reply, replies[0]);
  for (let i = 1; i < replies.length; i++) session.push(replies[i]);
}

export class RedisNode implements SessionHost {
  readonly keyspace: Keyspace;
  role: RedisRole = 'primary';
  up = true;
  /** run_id of the current process (redis server.c: random, new at every start); the deployment draws it. */
  runId = '';
  /** For a primary: writes emitted to the replication stream. For a replica: writes applied. */
  replicationOffset = 0;
  readonly replicaLinks: ReplicationLink[] = [];
  /**
   * Called for every key change; the runner records lock keys into the history. The change
   * is the keyspace's reused object (Keyspace.onChange): read it during the call.
   */
  observer: ((node: RedisNode, change: KeyChange) => void) | null = null;
  /**
   * Why this primary refuses writes right now, or null (min-replicas-to-write not met,
   * a cluster master cut off from the majority). Set by the deployment.
   */
  writeRefusal: (() => string | null) | null = null;
  /** Runs scripts other than the built-in ones (set by whoever provides a Lua VM). */
  userScripts: UserScriptRunner | null = null;
  /** EVAL / SCRIPT LOAD bodies by SHA1; memory only (lost on restart). */
  readonly scripts = new ScriptCache();
  /** Active-expiry checks planned and not yet due (scheduleExpiry), in the engine's order. */
  private readonly expiries = new ExpiryQueue();
  /** DEBUG SLEEP: commands that arrive while paused run, in order, when it wakes. */
  private pausedQueue: Array<() => void> | null = null;
  /** Channel and pattern subscribers (pubsub.ts). */
  readonly pubsub = new PubSub();
  private waits: WaitRequest[] = [];
  /** Client TCP connections this process accepted (tcp.ts); kill -9 closes them all. */
  private readonly sockets = new Set<() => void>();
  /** The session of each accepted connection (session.ts), by its close function. */
  private readonly sessionsBySocket = new Map<() => void, ClientSession>();
  /** Sessions by CLIENT ID: the open connections, and a one-command connection while it is blocked. */
  private readonly sessions = new Map<number, ClientSession>();
  /** The next CLIENT ID (networking.c createClient: server.next_client_id). */
  private nextClientId = FIRST_CLIENT_ID;
  /** Clients blocked by BLPOP and its kin (blocking.ts). */
  private readonly blocked: BlockedClients;

  /**
   * What a script sees of this node. A script runs to its end inside one command, and nothing
   * keeps the context after it: one object per node, its request and SHA1 set per EVAL (not an
   * object and three closures per script run).
   */
  private readonly scriptContext: ScriptContext;

  constructor(
    readonly name: string,
    private readonly sim: Simulation,
    readonly clock: LocalClock,
  ) {
    this.keyspace = new Keyspace(() => clock.nowMs(), () => clock.nowUs());
    this.keyspace.onChange = (change) => this.onKeyChange(change);
    this.blocked = new BlockedClients(sim, clock, this.keyspace, (fn) => this.whenAwake(fn));
    this.scriptContext = {
      keyspace: this.keyspace,
      publish: (c, m) => this.publish(c, m),
      info: (a) => this.info(a),
      pubsub: (a) => this.pubsub.pubsubCommand(a),
      tag: '',
      sha: '',
      writeRefusal: () => (this.role === 'replica' ? ERR_READONLY.message : (this.writeRefusal?.() ?? null)),
    };
  }

  /**
   * Executes one command from a client. `reply` is called once, now or later (WAIT, a blocking
   * pop); never when the node is down (the client's timeout covers that). `session` is the
   * client's connection (session.ts); without one the command runs on a connection of its own.
   */
  execute(args: readonly string[], tag: string, reply: ReplyTo, session?: ClientSession): void {
    if (!this.up) return;
    if (this.pausedQueue !== null) {
      this.pausedQueue.push(() => this.execute(args, tag, reply, session));
      return;
    }
    if (session !== undefined) {
      if (session.closed) return;
      if (session.blocked !== null) {
        session.pending.push(() => this.execute(args, tag, reply, session));
        return;
      }
    }
    const cmd = commandInfo(args[0]);
    const refused = this.admissionError(args, cmd, session);
    if (refused !== null) answer(reply, refused);
    else if (cmd.name === 'wait') this.wait(args, reply, false, session);
    else if (SESSION_COMMANDS.has(cmd.name) || (cmd.name === 'ping' && session?.subscribed)) this.sessionCommand(args, cmd, reply, session ?? this.oneCommandSession());
    else if (cmd.spec?.blocking === true) this.blockingCommand(args, tag, cmd, reply, session);
    else answer(reply, this.run(args, tag, cmd));
    if (this.blocked.busy) this.blocked.afterCommand();
  }

  /** A connection made for one command (a transport without sessions); CLIENT ID answers a new id each time. */
  private oneCommandSession(): ClientSession {
    return new ClientSession(this.nextClientId++);
  }

  /** Opens the session of a connection a transport models (tcp.ts: acceptConnection does for its sockets). */
  openSession(closeConnection: (() => void) | null = null): ClientSession {
    const session = new ClientSession(this.nextClientId++, closeConnection);
    this.sessions.set(session.id, session);
    return session;
  }

  /** The client's connection closed: it is unblocked without a reply, its subscriptions go. */
  closeSession(session: ClientSession): void {
    session.closed = true;
    this.sessions.delete(session.id);
    const b = session.blocked as Blocked | null;
    if (b !== null) {
      b.wait?.cancel();
      this.blocked.release(b);
    }
    session.pending.length = 0;
    this.pubsub.dropSession(session);
  }

  /** @internal SessionHost: CLIENT UNBLOCK's lookup. */
  sessionById(id: number): ClientSession | undefined {
    return this.sessions.get(id);
  }

  /** @internal SessionHost: CLIENT UNBLOCK of a blocked session. */
  unblockSession(session: ClientSession, withError: boolean): boolean {
    const b = session.blocked as Blocked | null;
    if (b === null) return false;
    this.blocked.unblock(b, withError);
    return true;
  }

  private sessionCommand(args: readonly string[], cmd: CommandInfo, reply: ReplyTo, session: ClientSession): void {
    if (cmd.name === 'ping') return answer(reply, subscribedPing(args));
    answerAll(reply, session, runSessionCommand(this, session, args, cmd.name));
    if (cmd.name === 'quit') {
      this.closeSession(session);
      session.closeConnection?.();
    }
  }

  /**
   * BLPOP and its kin (t_list.c blockingPopGenericCommand, t_zset.c blockingGenericZpopCommand):
   * what the handler answers when it found something, or an error; else the client blocks.
   */
  private blockingCommand(args: readonly string[], tag: string, cmd: CommandInfo, reply: ReplyTo, sessionIn: ClientSession | undefined): void {
    const r = this.run(args, tag, cmd);
    if (r !== null) return answer(reply, r);
    const session = sessionIn ?? this.oneCommandSession();
    const isZset = cmd.name.startsWith('bz');
    const list = isZset ? null : listBlockOf(cmd.name, args);
    const zset = isZset ? zsetBlockOf(cmd.name, args) : null;
    const timeoutMs = (list ?? zset)!.timeoutMs;
    // timeout.c: a positive timeout is added to the clock (a sum past 2^63 - 1 wraps below zero: due at once).
    let deadlineMs: number | null = null;
    if (timeoutMs > 0n) {
      const at = timeoutMs + BigInt(this.clock.nowMs());
      deadlineMs = at > 9223372036854775807n ? -1 : Number(at);
    }
    this.sessions.set(session.id, session);
    const b: Blocked = { session, tag, reply: sessionIn === undefined ? this.forgetAfter(session, reply) : reply, list, zset, wait: null, deadlineMs };
    this.blocked.block(b);
  }

  /** The reply of a one-command connection's blocked command: once answered, the connection is gone. */
  private forgetAfter(session: ClientSession, reply: ReplyTo): ReplyTo {
    return (r) => {
      this.sessions.delete(session.id);
      answer(reply, r);
    };
  }

  /**
   * MULTI, `commands`, EXEC arriving together (transaction.ts): each command is admitted as
   * execute() admits it, then all run back to back. `reply` gets MULTI's, each QUEUED and
   * EXEC's replies at once, or nothing when the node is down.
   */
  executeTransaction(commands: readonly (readonly string[])[], tag: string, reply: (r: TransactionReplies) => void, session?: ClientSession): void {
    if (!this.up) return;
    if (this.pausedQueue !== null) {
      this.pausedQueue.push(() => this.executeTransaction(commands, tag, reply, session));
      return;
    }
    if (session !== undefined) {
      if (session.closed) return;
      if (session.blocked !== null) {
        session.pending.push(() => this.executeTransaction(commands, tag, reply, session));
        return;
      }
      // In the pub/sub context MULTI and EXEC are refused, so each command runs (or is refused) on its own.
      if (session.subscribed) {
        const queued = commands.map((args) => {
          let r: RedisReply = null;
          this.execute(args, tag, (x) => (r = x), session);
          return r;
        });
        // server.c rejectCommandFormat of EXEC: multi.c execCommandAbort, the message without "ERR ".
        const execRefused = this.pubsubContextError(['EXEC'], commandInfo('exec')).message.replace(/^ERR /, '');
        reply({ multi: this.pubsubContextError(['MULTI'], commandInfo('multi')), queued, exec: new RedisErrorReply(`EXECABORT Transaction discarded because of: ${execRefused}`) });
        return;
      }
    }
    reply(
      runTransaction(
        commands,
        (args) => this.admissionError(args, commandInfo(args[0]), session),
        (args) => {
          const cmd = commandInfo(args[0]);
          // Inside EXEC a WAIT cannot block (CLIENT_DENY_BLOCKING): it answers the count now.
          if (cmd.name === 'wait') {
            let r: RedisReply = null;
            this.wait(args, (x) => (r = x), true);
            return r;
          }
          if (SESSION_COMMANDS.has(cmd.name)) {
            const s = session ?? this.oneCommandSession();
            const replies = runSessionCommand(this, s, args, cmd.name);
            for (let i = 1; i < replies.length; i++) s.push(replies[i]);
            return replies[0];
          }
          // A blocking pop that finds nothing answers nil here (its handler's null).
          return this.run(args, tag, cmd);
        },
      ),
    );
    if (this.blocked.busy) this.blocked.afterCommand();
  }

  /**
   * What redis 7.0.15 server.c processCommand refuses before running a command: an unknown
   * command or wrong arity, then a write on a replica (READONLY) or on a primary that refuses
   * writes now (NOREPLICAS; CLUSTERDOWN). EVAL and EVALSHA are no WRITE commands in 7.0: a
   * script's writes are refused inside it (script-call.ts), except by a cluster node that is
   * down, which refuses the command itself.
   */
  private admissionError(args: readonly string[], cmd: CommandInfo, session?: ClientSession): RedisErrorReply | null {
    const shape = checkShape(args, cmd);
    if (shape !== null) return shape;
    const spec = cmd.spec;
    if (spec?.write && this.role === 'replica') return ERR_READONLY;
    if (session?.subscribed === true && !PUBSUB_CONTEXT_COMMANDS.has(cmd.name)) return this.pubsubContextError(args, cmd);
    // A cluster node whose state is fail refuses every command with keys, reads included
    // (redis 7.0.15 cluster.c getNodeByQuery: "Cluster is globally down but we got keys?",
    // CLUSTER_REDIR_DOWN_STATE unless cluster-allow-reads-when-down, default no); keyless
    // ones (PING, INFO, PUBLISH, WAIT, SCRIPT) are served. Scripts are refused whatever their
    // number of keys (the model's simplification: a lock script always has one).
    if ((spec?.write || cmd.keyed) && this.writeRefusal) {
      const refusal = this.writeRefusal();
      if (refusal !== null && (spec?.write || refusal.startsWith('CLUSTERDOWN'))) return new RedisErrorReply(refusal);
    }
    return null;
  }

  /** server.c processCommand: what a RESP2 client in the pub/sub context may not send. */
  private pubsubContextError(args: readonly string[], cmd: CommandInfo): RedisErrorReply {
    return new RedisErrorReply(`ERR Can't execute '${fullName(args, cmd)}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context`);
  }

  /** Runs an admitted command (all but WAIT's blocking). */
  private run(args: readonly string[], tag: string, cmd: CommandInfo): RedisReply {
    switch (cmd.name) {
      case 'publish':
        return this.publish(args[1], args[2]);
      case 'eval':
      case 'evalsha':
        return this.eval(args, tag, cmd.name === 'evalsha');
      case 'script':
        return this.scriptCommand(args);
      case 'info':
        return this.info(args);
      case 'multi':
        // A lone MULTI through execute(): transactions come whole through executeTransaction.
        return new RedisErrorReply('ERR lock-sim takes a transaction whole (RedisNode.executeTransaction), not MULTI alone');
      case 'exec':
        return new RedisErrorReply('ERR EXEC without MULTI');
      case 'discard':
        return new RedisErrorReply('ERR DISCARD without MULTI');
      default:
        return runResolvedKeyspaceCommand(this.keyspace, args, tag, cmd);
    }
  }

  /**
   * SCRIPT LOAD / EXISTS / FLUSH (redis 7.0.15 eval.c scriptCommand). LOAD caches the body and
   * answers its SHA1 (a Lua VM would also compile it); EXISTS answers 1 or 0 per SHA1; FLUSH
   * takes no option or ASYNC / SYNC.
   */
  private scriptCommand(args: readonly string[]): RedisReply {
    const sub = asciiLower(args[1]);
    if (sub === 'load') return this.scripts.add(args[2]);
    if (sub === 'exists') return args.slice(2).map((sha) => (this.scripts.has(sha) ? 1 : 0));
    if (args.length === 3 && !['async', 'sync'].includes(asciiLower(args[2]))) {
      return new RedisErrorReply('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
    }
    if (args.length > 3) return new RedisErrorReply('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
    this.scripts.flush();
    return 'OK';
  }

  /**
   * INFO [section]: the replication section, the one lock clients read (Redisson's
   * syncedEval takes `connected_slaves` from it for WAIT). Lines as Redis 7 prints them
   * (`server.c` genRedisInfoString), CRLF-separated; other sections are empty here.
   */
  private info(args: readonly string[]): RedisReply {
    // Redis 7 takes several section names (server.c genInfoSectionDict); none means "default".
    if (args.length > 1 && !asksForReplication(args)) return '';
    // One string, no array of lines (Redisson reads INFO replication before each WAIT).
    if (this.role === 'primary') {
      return `# Replication\r\nrole:master\r\nconnected_slaves:${this.connectedReplicas()}\r\nmaster_repl_offset:${this.replicationOffset}\r\n`;
    }
    return `# Replication\r\nrole:slave\r\nslave_repl_offset:${this.replicationOffset}\r\n`;
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
    return this.pubsub.subscribe(channel, subscriber);
  }

  publish(channel: string, message: string): number {
    return this.pubsub.publish(channel, message);
  }

  /**
   * A client's TCP handshake reaches this server: refused (false) when no process listens;
   * otherwise `onClose` runs when this process dies, whose kernel then closes the socket.
   * A sleeping server (DEBUG SLEEP) still accepts: the kernel completes the handshake.
   */
  acceptConnection(onClose: () => void): ClientSession | null {
    if (!this.up) return null;
    this.sockets.add(onClose);
    const session = this.openSession(onClose);
    this.sessionsBySocket.set(onClose, session);
    return session;
  }

  /**
   * CLIENT KILL TYPE normal: the server closes every client socket (FIN), as after a crash but
   * alive. Sentinel sends it with every REPLICAOF it sends (see sentinel/links.ts replicaOf).
   */
  killClientConnections(): void {
    const sockets = [...this.sockets];
    this.sockets.clear();
    for (const session of this.sessionsBySocket.values()) this.closeSession(session);
    this.sessionsBySocket.clear();
    for (const close of sockets) close();
  }

  /** A client closed its end: forget the socket, and close its session. */
  forgetConnection(onClose: () => void): void {
    this.sockets.delete(onClose);
    const session = this.sessionsBySocket.get(onClose);
    if (session === undefined) return;
    this.sessionsBySocket.delete(onClose);
    this.closeSession(session);
  }

  /** kill -9 of the server process: no more replies, subscriptions, blocked WAITs and client sockets are gone. */
  crash(): void {
    this.up = false;
    this.pausedQueue = null;
    this.pubsub.clear();
    this.waits = [];
    this.blocked.clear();
    for (const session of this.sessions.values()) session.closed = true;
    this.sessions.clear();
    this.sessionsBySocket.clear();
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
    this.blocked.clockChanged();
  }

  /** Comes back up; without persistence the dataset is empty (Redis default: appendonly no). */
  restart(keepData: boolean): void {
    this.up = true;
    // The script cache is never persisted (eval.c): a restarted server knows no SHA1.
    this.scripts.flush();
    this.nextClientId = FIRST_CLIENT_ID;
    this.blocked.restarted();
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
    this.disconnectBlockedSessions();
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

  /**
   * blocked.c disconnectAllBlockedClients (replication.c replicationSetMaster): each client
   * blocked on a session gets the UNBLOCKED error, then its connection is closed. A WAIT sent
   * without a session (the built-in clients) stays as it was: it times out with its count.
   */
  private disconnectBlockedSessions(): void {
    const held = [...this.sessions.values()].filter((s) => s.blocked !== null);
    for (const session of held) {
      const b = session.blocked as Blocked;
      b.wait?.cancel();
      this.blocked.release(b);
      answer(b.reply, ERR_UNBLOCKED_DEMOTED);
      this.closeSession(session);
      session.closeConnection?.();
    }
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
    for (const w of answered) answer(w.reply, this.ackedReplicas(w.targetOffset));
  }

  /** Listed replicas that acknowledged `offset` (redis 7.0.15 replicationCountAcksByOffset). */
  private ackedReplicas(offset: number): number {
    let n = 0;
    for (const link of this.replicaLinks) if (link.listed && link.ackedOffset >= offset) n++;
    return n;
  }

  /**
   * WAIT numreplicas timeout, checked in the order of redis 7.0.15 `replication.c` waitCommand.
   * `noBlock` (inside EXEC) answers the count at once.
   */
  private wait(args: readonly string[], replyIn: ReplyTo, noBlock: boolean, session?: ClientSession): void {
    if (this.role === 'replica') return answer(replyIn, ERR_WAIT_ON_REPLICA);
    const needed = parseInt64(args[1]);
    if (needed === null) return answer(replyIn, ERR_NOT_INTEGER);
    // timeout.c getTimeoutFromObjectOrReply.
    const timeoutMs = parseInt64(args[2]);
    if (timeoutMs === null) return answer(replyIn, new RedisErrorReply('ERR timeout is not an integer or out of range'));
    if (timeoutMs < 0n) return answer(replyIn, new RedisErrorReply('ERR timeout is negative'));
    const targetOffset = this.replicationOffset;
    const acked = this.ackedReplicas(targetOffset);
    if (acked >= needed || noBlock) return answer(replyIn, acked);
    let reply = replyIn;
    if (session !== undefined) {
      // The session is held until WAIT answers (its later commands wait), and CLIENT UNBLOCK or a demotion may answer it.
      const b: Blocked = {
        session,
        tag: '',
        reply: replyIn,
        list: null,
        zset: null,
        wait: { timeoutReply: () => this.ackedReplicas(targetOffset), cancel: () => (this.waits = this.waits.filter((w) => w !== request)) },
        deadlineMs: null,
      };
      this.blocked.blockWait(b);
      reply = (r) => {
        this.blocked.release(b);
        answer(replyIn, r);
        this.blocked.runFreed();
      };
    }
    const request: WaitRequest = { targetOffset, needed: Number(needed), reply };
    this.waits.push(request);
    // WAIT with timeout 0 blocks forever.
    if (timeoutMs > 0n) this.waitTimeout(request, Number(timeoutMs) * 1000);
  }

  /**
   * A blocked WAIT's timeout: it answers the count then. One answered already, or dropped by a
   * crash, is no longer in `waits`. A method of its own: a closure made in wait() had every
   * WAIT allocate a context for what it captures, blocked or not.
   */
  private waitTimeout(request: WaitRequest, afterUs: number): void {
    this.sim.schedule(afterUs, () => {
      if (!this.waits.includes(request)) return;
      this.waits = this.waits.filter((w) => w !== request);
      answer(request.reply, this.ackedReplicas(request.targetOffset));
    });
  }

  /**
   * EVAL / EVALSHA (redis 7.0.15 eval.c evalShaCommand, evalGenericCommand): EVALSHA of a
   * text that is not 40 characters answers NOSCRIPT at once; then numkeys (an integer, not
   * above the number of arguments, not negative); then the body: EVAL caches it, EVALSHA
   * must find it in this server's cache (NOSCRIPT otherwise). A failed redis.call inside ends
   * the script with its error (script-call.ts).
   */
  private eval(args: readonly string[], tag: string, isSha: boolean): RedisReply {
    if (isSha && args[1].length !== 40) return ERR_NOSCRIPT;
    const numKeys = parseInt64(args[2]);
    if (numKeys === null) return ERR_NOT_INTEGER;
    // As a double: rounding keeps every 64-bit value on its side of these small bounds (no
    // bigint made per script call).
    const keyCount = Number(numKeys);
    if (keyCount > args.length - 3) return new RedisErrorReply("ERR Number of keys can't be greater than number of args");
    if (keyCount < 0) return new RedisErrorReply("ERR Number of keys can't be negative");
    let body: string;
    if (isSha) {
      const found = this.scripts.get(args[1]);
      if (found === undefined) return ERR_NOSCRIPT;
      body = found;
    } else body = args[1];
    const sha = this.scripts.add(body);
    const ctx = this.scriptContext;
    ctx.tag = tag;
    ctx.sha = sha;
    const builtin = builtinScriptByText(body);
    // A built-in script reads its keys and arguments while it runs and keeps neither: one
    // array each, refilled per EVAL (no script runs inside another).
    if (builtin !== undefined) return runBuiltin(builtin, ctx, refill(SCRIPT_KEYS, args, 3, 3 + keyCount), refill(SCRIPT_ARGV, args, 3 + keyCount, args.length));
    const keys = args.slice(3, 3 + keyCount);
    const argv = args.slice(3 + keyCount);
    try {
      if (this.userScripts !== null) return this.userScripts(ctx, body, keys, argv);
      // The Lua VM of own-code locks (src/own-code/install-lua.ts), when one is loaded: its
      // redis.call goes through the same checks as a built-in script's, and it places the
      // error itself ("on @user_script:N").
      const lua = userScriptRunner();
      if (lua !== null) return lua(body, sha, keys, argv, (a) => scriptCallReply(ctx, a));
      return new RedisErrorReply('ERR lock-sim runs only its built-in scripts here (no Lua VM attached to this node)');
    } catch (e) {
      if (e instanceof ScriptCallError) return e.reply;
      throw e;
    }
  }

  /**
   * The key's holder `from` is `to` (a user module's write that lock-sim attributed by guess,
   * own-code/request-identity.ts, now known): here and on the replicas' copies, told to the
   * observer as an 'attributed' change. Redis's state does not change, nothing replicates.
   */
  reattribute(key: string, from: string, to: string): void {
    const entry = this.keyspace.reattribute(key, from, to);
    if (entry !== undefined) this.observer?.(this, { key, entry, cause: 'attributed', byTag: to, previousHolder: from });
    for (const link of this.replicaLinks) link.replica.reattribute(key, from, to);
  }

  private onKeyChange(change: KeyChange): void {
    if (this.role === 'primary') {
      this.replicationOffset++;
      // The state shipped is a copy (the primary's entry changes in place later), one per
      // replica link that takes it: the replica stores what arrives, and a replica promoted
      // later changes its entries in place, which must not show on a sibling replica that
      // shares the object. A standalone node, or one whose replicas left, copies nothing.
      const entry = change.entry;
      for (const link of this.replicaLinks) {
        if (link.accepting) link.ship(change.key, entry ? cloneEntry(entry) : undefined, this.replicationOffset);
      }
      if (change.entry?.expireAtMs != null) this.scheduleExpiry(change.key, change.entry.expireAtMs);
      // db.c dbAdd -> signalKeyAsReady: a list or sorted set at a key a client waits for.
      if (this.blocked.busyKeys && change.entry !== undefined && (change.entry.value instanceof RedisList || change.entry.value instanceof RedisZset)) this.blocked.keyWritten(change.key);
    }
    this.observer?.(this, change);
  }

  /** Active expiry: look the key up just after its deadline, which deletes it if still due. */
  private scheduleExpiry(key: string, expireAtMs: number): void {
    // A deadline past 2^53 µs (285 years; SET PXAT and PEXPIREAT take up to 2^63-1 ms) is
    // never reached by a run, and its microseconds are not exact doubles: nothing to plan.
    if ((expireAtMs + 1) * 1000 > Number.MAX_SAFE_INTEGER) return;
    // The engine queues it at that time or now, whichever is later (Simulation.scheduleAt).
    const at = Math.max(this.clock.simTimeAt((expireAtMs + 1) * 1000), this.sim.nowUs);
    this.expiries.push(at, key);
    this.sim.scheduleAt(at, this.expireNext);
  }

  /**
   * The first planned expiry check fell due (every plan queued one event of this callback,
   * and the queue keeps the engine's order): its key is looked up, which deletes it if due.
   */
  private readonly expireNext = (): void => {
    const key = this.expiries.shift();
    if (this.up && !this.paused && this.role === 'primary') this.keyspace.lookup(key);
  };

  private rescheduleExpiries(): void {
    for (const key of this.keyspace.keys()) {
      const e = this.keyspace.rawGet(key);
      if (e?.expireAtMs != null) this.scheduleExpiry(key, e.expireAtMs);
    }
  }
}
