/**
 * One ioredis connection from a client process to one Redis server, with the defaults of
 * ioredis 4.28.5: the client node-redlock 4.2.0 and 5.0.0-beta.2 are built and tested with
 * (their package.json: ioredis ^4.18.0 and ^4.28.5), and users hand them clients made with
 * `new Redis(...)`. What a lock client meets when a server is dead, asleep or cut off (ioredis
 * v4.28.5 lib/redis/RedisOptions.ts DEFAULT_REDIS_OPTIONS; lib/redis/index.ts sendCommand,
 * flushQueue; lib/redis/event_handler.ts closeHandler, connectHandler, readyHandler):
 * - no command timeout (`commandTimeout` unset): a written command waits for its reply;
 * - when the connection closes (the server process died: FIN or RST; TCP gave up), written
 *   commands without a reply are kept to be sent again (`autoResendUnfulfilledCommands`),
 *   new ones wait in the offline queue (`enableOfflineQueue`), and a reconnect is tried after
 *   `retryStrategy(times) = Math.min(times * 50, 2000)` ms;
 * - at every 21st close in a row (`retryAttempts % (maxRetriesPerRequest + 1) === 0`,
 *   `maxRetriesPerRequest: 20`) every waiting command fails with MaxRetriesPerRequestError;
 *   the count restarts when a connection is ready;
 * - a reconnect is a TCP handshake (refused at once where no server process listens; SYN
 *   sent again to a host cut off) bounded by `connectTimeout` 10 s, then the ready check
 *   (INFO, no timeout), then the kept commands are sent, then the offline queue.
 * A server that sleeps (DEBUG SLEEP) or is cut off closes nothing: the command waits until
 * the server answers or TCP gives up (tcp.ts). ioredis' timers run on the client's event
 * loop, so they are processes of the client's group: a GC pause delays them, kill -9 ends them.
 *
 * Measured (node-redlock 4.2.0 on ioredis 4.28.5, five redis-server 7.0.15 on loopback, one
 * killed with kill -9 just before a lock request): reconnects 50, 100, ..., 1000 ms apart;
 * the command to the dead server failed with MaxRetriesPerRequestError 10.55 s after the kill
 * and the unlock that followed 43.1 s after it (the 42nd close). A server restarted empty 2 s
 * after the kill got the waiting command at the next reconnect (2.28 s) and ran it. Cut off
 * for 1300 s (tcp.ts), the connection was reset after 938.7 s, then every reconnect timed
 * out after 10 s (connect ETIMEDOUT) until the cut healed; the lock request failed 0.6 s
 * after the heal, once its unlock went through the new connection (the model: 3.2 s after).
 */
import type { Process, ProcessGenerator, ProcessGroup } from '../engine/process.js';
import type { Micros } from '../engine/time.js';
import type { EachOutcome } from './effects.js';
import type { RedisNode } from './redis/node.js';
import type { ClientSession } from './redis/session.js';
import type { RedisReply } from './redis/reply.js';
import type { TransactionReplies } from './redis/transaction.js';
import { dialTcp, TcpConnection, type TcpPath } from './tcp.js';

/** What ioredis hands a command's callback: its reply, or the error it failed the command with. */
export type IoredisOutcome = Extract<EachOutcome, { status: 'ok' | 'error' }>;

interface Command {
  args: readonly string[];
  tag: string;
  done: (outcome: IoredisOutcome) => void;
  /** MULTI ... EXEC sent whole (`args` unused): runs at the server through executeTransaction. */
  transaction?: { commands: readonly (readonly string[])[]; done: (replies: TransactionReplies) => void };
}

/** ioredis lib/errors/MaxRetriesPerRequestError.ts (4.28.5 and 5.11.1 alike). */
const maxRetriesPerRequestError = (limit: number): string =>
  `Reached the max retries per request limit (which is ${limit}). Refer to "maxRetriesPerRequest" option for details.`;
/** The message with the default limit. */
export const MAX_RETRIES_PER_REQUEST_ERROR = maxRetriesPerRequestError(20);
/** ioredis 5.11.1 lib/utils/index.ts CONNECTION_CLOSED_ERROR_MSG: a command to a client that gave up reconnecting. */
const CONNECTION_CLOSED_ERROR = 'Connection is closed.';
/** ioredis 5.11.1 lib/Redis.ts sendCommand, with `enableOfflineQueue: false` and no connection ready. */
const OFFLINE_QUEUE_DISABLED_ERROR = "Stream isn't writeable and enableOfflineQueue options is false";
const CONNECT_TIMEOUT_US: Micros = 10_000_000;

/** The connection's life as ioredis reports it (lib/Redis.ts setStatus: an event per status). */
type IoredisStatus = 'connect' | 'ready' | 'close' | 'reconnecting' | 'end';

/**
 * The client options this model reads, and what the owner of the connection hears. The
 * defaults are ioredis' (RedisOptions.ts DEFAULT_REDIS_OPTIONS, 4.28.5 and 5.11.1 alike):
 * `retryStrategy(times) = Math.min(times * 50, 2000)`, `maxRetriesPerRequest: 20`,
 * `enableOfflineQueue: true`.
 */
export interface IoredisBehaviour {
  /** The delay in ms before reconnect attempt `times`; null (not a number) gives up: status 'end'. */
  retryStrategy(times: number): number | null;
  /** null: commands wait through any number of reconnects. */
  maxRetriesPerRequest(): number | null;
  enableOfflineQueue(): boolean;
  /**
   * ioredis 5 keeps a closed connection's unanswered commands for the next one only when it
   * was ready (5.11.1 event_handler.ts closeHandler: `if (prevStatus === "ready")`); 4.28.5
   * whenever it closes.
   */
  keepOnlyWhenReady: boolean;
  /** The server each (re)connect dials: fixed, or the master the client knows now (ioredis asks its Sentinels). */
  target(): RedisNode;
  /** The network path to a server. */
  pathTo(node: RedisNode): TcpPath;
  /** Each status as it is set (lib/Redis.ts setStatus); `arg` is the delay for 'reconnecting'. */
  onStatus(status: IoredisStatus, arg?: number): void;
}

export class IoredisConnection {
  private status: 'ready' | 'connecting' | 'connect' | 'reconnecting' | 'end' = 'reconnecting';
  private socket: TcpConnection | null = null;
  private retryAttempts = 0;
  /** Written to the current socket, waiting for their replies, in order. */
  private commandQueue: Command[] = [];
  /** The command queue of the socket that closed; sent again once a new one is ready. */
  private prevCommandQueue: Command[] | null = null;
  /** Sent while no connection was ready. */
  private offlineQueue: Command[] = [];
  /** Abandons the handshake under way (null: none). */
  private abandonDial: (() => void) | null = null;
  private readonly behaviour: IoredisBehaviour;
  /** The server of the current connection (or of the last one). */
  private node: RedisNode;
  private path: TcpPath;
  /** Channels subscribed (renewed on every ready connection, ioredis' autoResubscribe) and what their messages reach. */
  private readonly channels = new Set<{ channel: string; onMessage: (message: string) => void }>();
  /** The current connection's subscriptions at its server; the server forgets them when it closes. */
  private serverSubscriptions: Array<() => void> = [];
  /** Each socket's connection state at its server (CLIENT ID, a blocked pop holding later commands). */
  private readonly sessions = new WeakMap<TcpConnection, ClientSession>();

  /**
   * Opened when the client first uses it (node-redlock's clients are made at start-up): it
   * finds the server as it is then, connected if a process runs, reconnecting if not.
   */
  constructor(
    path: TcpPath,
    private readonly client: string,
    node: RedisNode,
    /** The client process: its pauses delay the timers, its death ends the connection. */
    private readonly group: ProcessGroup,
    behaviour?: IoredisBehaviour,
  ) {
    this.node = node;
    this.path = path;
    this.behaviour = behaviour ?? {
      retryStrategy: (times) => Math.min(times * 50, 2000),
      maxRetriesPerRequest: () => 20,
      enableOfflineQueue: () => true,
      keepOnlyWhenReady: false,
      target: () => node,
      pathTo: () => path,
      onStatus: () => {},
    };
    const socket = new TcpConnection(path, client, node.name);
    if (this.register(socket)) {
      this.socket = socket;
      this.status = 'ready';
    } else {
      this.closeHandler();
    }
  }

  /** Sends a command; `done` gets its reply, or the error ioredis fails it with. */
  send(args: readonly string[], tag: string, done: (outcome: IoredisOutcome) => void): void {
    this.enqueue({ args, tag, done });
  }

  /**
   * MULTI, `commands`, EXEC written in one go (ioredis' multi().exec()): the server runs them
   * through executeTransaction; `done` gets its replies, or `failed` the error ioredis fails
   * the whole transaction with.
   */
  sendTransaction(commands: readonly (readonly string[])[], tag: string, done: (replies: TransactionReplies) => void, failed: (message: string) => void): void {
    this.enqueue({
      args: ['EXEC'],
      tag,
      transaction: { commands, done },
      done: (outcome) => {
        if (outcome.status === 'error') failed(outcome.message);
      },
    });
  }

  /**
   * SUBSCRIBE on this connection, renewed after every reconnect (ioredis' autoResubscribe,
   * 5.11.1 event_handler.ts readyHandler). Returns the UNSUBSCRIBE.
   */
  subscribe(channel: string, onMessage: (message: string) => void): () => void {
    const entry = { channel, onMessage };
    this.channels.add(entry);
    if (this.status === 'ready' && this.socket) this.subscribeAtServer(this.socket, entry);
    return () => this.channels.delete(entry);
  }

  /**
   * ioredis `disconnect(true)` (reconnectOnError's answer 1 or 2): the client closes its end,
   * and the close is handled as any other (retryStrategy, a reconnect).
   */
  reconnect(): void {
    if (this.status === 'ready' || this.status === 'connect') this.socket?.closeClient('disconnect');
  }

  private enqueue(command: Command): void {
    if (this.group.dead) return;
    if (this.status === 'end') return command.done({ status: 'error', message: CONNECTION_CLOSED_ERROR });
    if (this.status === 'ready' && this.socket) this.write(this.socket, command);
    else if (!this.behaviour.enableOfflineQueue()) command.done({ status: 'error', message: OFFLINE_QUEUE_DISABLED_ERROR });
    else this.offlineQueue.push(command);
  }

  private subscribeAtServer(socket: TcpConnection, entry: { channel: string; onMessage: (message: string) => void }): void {
    const node = this.node;
    socket.sendToServer(() => {
      if (socket.serverGone || !node.up) return;
      const unsubscribe = node.subscribe(entry.channel, (_channel, message) =>
        socket.sendToClient(() => {
          if (socket === this.socket && this.channels.has(entry)) entry.onMessage(message);
        }),
      );
      if (socket === this.socket && !socket.clientClosed) this.serverSubscriptions.push(unsubscribe);
      else unsubscribe();
    });
  }

  /**
   * The client process died (kill -9): its kernel closes the socket (what was sent still
   * reaches the server) and drops a handshake under way; nothing more happens here.
   */
  dispose(): void {
    const socket = this.socket;
    this.socket = null;
    this.abandonDial?.();
    this.abandonDial = null;
    socket?.clientProcessDied();
  }

  /** Registers a socket with the server process; false when none listens. */
  private register(socket: TcpConnection): boolean {
    const onServerDeath = (): void => socket.serverDied();
    const session = this.node.acceptConnection(onServerDeath);
    if (session === null) return false;
    this.sessions.set(socket, session);
    socket.onClientClose = () => {
      this.node.forgetConnection(onServerDeath);
      if (socket === this.socket) this.closeHandler();
    };
    return true;
  }

  private write(socket: TcpConnection, command: Command): void {
    this.commandQueue.push(command);
    const node = this.node;
    socket.sendToServer(() => {
      if (socket.serverGone) {
        socket.resetFromServer();
        return;
      }
      const t = command.transaction;
      if (t) {
        node.executeTransaction(t.commands, command.tag, (replies) => socket.sendToClient(() => this.onReply(socket, replies.exec, () => t.done(replies))), this.sessions.get(socket));
        return;
      }
      node.execute(command.args, command.tag, (reply) => socket.sendToClient(() => this.onReply(socket, reply)), this.sessions.get(socket));
    });
  }

  private onReply(socket: TcpConnection, reply: RedisReply, transaction?: () => void): void {
    if (socket !== this.socket) return;
    const command = this.commandQueue.shift();
    if (transaction) transaction();
    else command?.done({ status: 'ok', reply });
  }

  /** event_handler.ts closeHandler: retryStrategy, then maxRetriesPerRequest. */
  private closeHandler(): void {
    if (this.group.dead) return;
    const wasReady = this.status === 'ready';
    this.socket = null;
    for (const unsubscribe of this.serverSubscriptions.splice(0)) unsubscribe();
    this.behaviour.onStatus('close');
    if (this.commandQueue.length > 0 && (wasReady || !this.behaviour.keepOnlyWhenReady)) this.prevCommandQueue = this.commandQueue;
    this.retryAttempts++;
    const delayMs = this.behaviour.retryStrategy(this.retryAttempts);
    if (delayMs === null) {
      // `retryStrategy` returned no number: no reconnect; everything waiting fails (close()).
      this.status = 'end';
      this.behaviour.onStatus('end');
      this.flushQueue(CONNECTION_CLOSED_ERROR);
      return;
    }
    this.status = 'reconnecting';
    this.behaviour.onStatus('reconnecting', delayMs);
    this.after(Math.max(0, delayMs) * 1000, () => this.connect());
    const limit = this.behaviour.maxRetriesPerRequest();
    if (limit !== null && limit >= 0 && this.retryAttempts % (limit + 1) === 0) this.flushQueue(maxRetriesPerRequestError(limit));
  }

  /** index.ts flushQueue: the offline queue and the command queue (emptied in place, as a Deque is). */
  private flushQueue(message: string): void {
    const failed = [...this.offlineQueue.splice(0), ...this.commandQueue.splice(0)];
    for (const command of failed) command.done({ status: 'error', message });
  }

  /** A handshake bounded by connectTimeout: a timer cleared when the handshake ends first. */
  private connect(): void {
    if (this.group.dead || this.status === 'end') return;
    this.status = 'connecting';
    this.node = this.behaviour.target();
    this.path = this.behaviour.pathTo(this.node);
    const abandon = dialTcp(
      this.path,
      this.client,
      this.node.name,
      () => this.node.up,
      (socket) => this.register(socket),
      (socket) => {
        this.abandonDial = null;
        connectTimeout.kill();
        if (this.group.dead) return;
        if (socket === null) this.closeHandler(); // ECONNREFUSED: 'error', then 'close'
        else this.connectHandler(socket);
      },
    );
    this.abandonDial = abandon;
    const connectTimeout = this.after(CONNECT_TIMEOUT_US, () => {
      this.abandonDial = null;
      abandon();
      this.closeHandler();
    });
  }

  /** event_handler.ts connectHandler: a fresh command queue, then the ready check. */
  private connectHandler(socket: TcpConnection): void {
    this.socket = socket;
    this.status = 'connect';
    this.behaviour.onStatus('connect');
    this.commandQueue = [];
    this.write(socket, {
      args: ['INFO'],
      tag: '',
      done: (outcome) => {
        if (socket === this.socket && outcome.status === 'ok') this.readyHandler(socket);
      },
    });
  }

  /** event_handler.ts readyHandler: the kept commands first, then the offline queue. */
  private readyHandler(socket: TcpConnection): void {
    if (this.group.dead) return;
    this.status = 'ready';
    this.behaviour.onStatus('ready');
    this.retryAttempts = 0;
    for (const entry of this.channels) this.subscribeAtServer(socket, entry);
    const kept = this.prevCommandQueue ?? [];
    while (kept.length > 0) this.write(socket, kept.shift()!);
    const offline = this.offlineQueue;
    this.offlineQueue = [];
    for (const command of offline) this.write(socket, command);
  }

  /** A timer of the client's event loop (killing the process clears it). */
  private after(delayUs: Micros, fire: () => void): Process<void> {
    const timer = function* (): ProcessGenerator<void> {
      yield delayUs;
      fire();
    };
    return this.path.sim.spawn(`${this.client}/ioredis->${this.node.name}`, timer(), this.group);
  }
}
