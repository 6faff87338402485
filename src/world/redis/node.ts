/**
 * A Redis server: a keyspace judged by the node's own clock, a role (primary or replica),
 * pub/sub, WAIT, EVAL of the built-in scripts, and active expiry. Commands run atomically
 * at the instant they arrive; the network and the client decide when that is.
 */
import type { Simulation } from '../../engine/simulation.js';
import type { LocalClock } from '../clock.js';
import { admissionError, ERR_READONLY, pubsubContextError } from './admission.js';
import { commandInfo, runResolvedKeyspaceCommand, type CommandInfo } from './commands.js';
import { infoCommand } from './info-command.js';
import { scriptCommand } from './script-command.js';
import { cloneEntry, Keyspace, type Entry, type KeyChange } from './keyspace.js';
import { ERR_NOT_INTEGER, parseInt64, RedisErrorReply, type RedisReply } from './reply.js';
import type { ReplicationLink } from './replication.js';
import { ScriptCallError, type ScriptContext } from './script-call.js';
import { ScriptCache } from './script-cache.js';
import { ActiveExpiry } from './active-expiry.js';
import { builtinScriptByText, runBuiltin } from './scripts.js';
import { runTransaction, type TransactionReplies } from './transaction.js';
import { answer, type ReplyTo } from './reply-to.js';
import { PubSub, type Subscriber } from './pubsub.js';
import { ClientSession } from './session.js';
import { runSessionCommand, SESSION_COMMANDS, subscribedPing, type SessionHost } from './session-commands.js';
import { BlockedClients, type Blocked } from './blocking.js';
import { listBlockOf } from './list-commands.js';
import { zsetBlockOf } from './zset-commands.js';
import { ReplicaWaits } from './wait-command.js';
import { RedisList, RedisZset } from './collection-values.js';

type RedisRole = 'primary' | 'replica';

/** redis 7.0.15 blocked.c disconnectAllBlockedClients: what a primary turned replica answers its blocked clients. */
const ERR_UNBLOCKED_DEMOTED = new RedisErrorReply('UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)');
/** The first client id a fresh server gives a connection (measured on redis-server 7.0.15: ids 1 and 2 go to its internal clients). */
const FIRST_CLIENT_ID = 3;

const ERR_NOSCRIPT = new RedisErrorReply('NOSCRIPT No matching script. Please use EVAL.');

/**
 * Runs a script body that is not one of the built-in scripts (a Lua VM for user code); its
 * redis.call goes through script-call.ts with `ctx` (ctx.sha names the script). A node is
 * given one when it is built (the own-code Lua VM, src/own-code/lua-runner.ts, for a run of
 * user code); without one, such scripts are refused with a lock-sim error.
 */
export type UserScriptRunner = (ctx: ScriptContext, body: string, keys: readonly string[], argv: readonly string[]) => RedisReply;


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
  /** EVAL / SCRIPT LOAD bodies by SHA1; memory only (lost on restart). */
  readonly scripts = new ScriptCache();
  /** Active-expiry checks planned and not yet due (active-expiry.ts). */
  private readonly expiry: ActiveExpiry;
  /** DEBUG SLEEP: commands that arrive while paused run, in order, when it wakes. */
  private pausedQueue: Array<() => void> | null = null;
  /** Channel and pattern subscribers (pubsub.ts). */
  readonly pubsub = new PubSub();
  /** Blocked WAITs (wait-command.ts). */
  private readonly waits: ReplicaWaits;
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
    sim: Simulation,
    readonly clock: LocalClock,
    /** Runs scripts other than the built-in ones; null: they are refused (UserScriptRunner). */
    private readonly userScripts: UserScriptRunner | null = null,
  ) {
    this.keyspace = new Keyspace(() => clock.nowMs(), () => clock.nowUs());
    this.keyspace.onChange = (change) => this.onKeyChange(change);
    this.blocked = new BlockedClients(sim, clock, this.keyspace, (fn) => this.whenAwake(fn));
    this.waits = new ReplicaWaits(this, sim, this.blocked);
    this.expiry = new ActiveExpiry(sim, clock, this.keyspace, () => this.up && !this.paused && this.role === 'primary');
    this.scriptContext = {
      keyspace: this.keyspace,
      publish: (c, m) => this.publish(c, m),
      info: (a) => infoCommand(this, a),
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
    const cmd = commandInfo(args[0], this.keyspace.server);
    const refused = admissionError(this, args, cmd, session);
    if (refused !== null) answer(reply, refused);
    else if (cmd.name === 'wait') this.waits.wait(args, reply, false, session);
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
        const execRefused = pubsubContextError(['EXEC'], commandInfo('exec')).message.replace(/^ERR /, '');
        reply({ multi: pubsubContextError(['MULTI'], commandInfo('multi')), queued, exec: new RedisErrorReply(`EXECABORT Transaction discarded because of: ${execRefused}`) });
        return;
      }
    }
    reply(
      runTransaction(
        commands,
        (args) => admissionError(this, args, commandInfo(args[0], this.keyspace.server), session),
        (args) => {
          const cmd = commandInfo(args[0], this.keyspace.server);
          // Inside EXEC a WAIT cannot block (CLIENT_DENY_BLOCKING): it answers the count now.
          if (cmd.name === 'wait') {
            let r: RedisReply = null;
            this.waits.wait(args, (x) => (r = x), true);
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

  /** Runs an admitted command (all but WAIT's blocking). */
  private run(args: readonly string[], tag: string, cmd: CommandInfo): RedisReply {
    switch (cmd.name) {
      case 'publish':
        return this.publish(args[1], args[2]);
      case 'eval':
      case 'evalsha':
        return this.eval(args, tag, cmd.name === 'evalsha');
      case 'script':
        return scriptCommand(this.scripts, args);
      case 'info':
        return infoCommand(this, args);
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
    this.waits.clear();
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
    this.expiry.rescheduleAll();
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
      if (this.role === 'primary') this.expiry.schedule(key, entry.expireAtMs);
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
    else this.expiry.rescheduleAll();
  }

  /** Becomes a primary (REPLICAOF NO ONE): keeps its data and starts expiring keys itself. */
  promote(): void {
    this.role = 'primary';
    this.keyspace.deletesExpiredKeys = true;
    this.replicationOffset = 0;
    this.expiry.rescheduleAll();
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
    this.waits.onReplicaAck();
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
      // The Lua VM of own-code locks, when this node was given one: its redis.call goes
      // through the same checks as a built-in script's, and it places the error itself
      // ("on @user_script:N").
      if (this.userScripts !== null) return this.userScripts(ctx, body, keys, argv);
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
      if (change.entry?.expireAtMs != null) this.expiry.schedule(change.key, change.entry.expireAtMs);
      // db.c dbAdd -> signalKeyAsReady: a list or sorted set at a key a client waits for.
      if (this.blocked.busyKeys && change.entry !== undefined && (change.entry.value instanceof RedisList || change.entry.value instanceof RedisZset)) this.blocked.keyWritten(change.key);
    }
    this.observer?.(this, change);
  }
}
