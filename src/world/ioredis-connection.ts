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
import type { RedisReply } from './redis/reply.js';
import { dialTcp, TcpConnection, type TcpPath } from './tcp.js';

/** What ioredis hands a command's callback: its reply, or the error it failed the command with. */
export type IoredisOutcome = Extract<EachOutcome, { status: 'ok' | 'error' }>;

interface Command {
  args: readonly string[];
  tag: string;
  done: (outcome: IoredisOutcome) => void;
}

/** ioredis lib/errors/MaxRetriesPerRequestError.ts, with the default limit. */
export const MAX_RETRIES_PER_REQUEST_ERROR =
  'Reached the max retries per request limit (which is 20). Refer to "maxRetriesPerRequest" option for details.';
const MAX_RETRIES_PER_REQUEST = 20;
const CONNECT_TIMEOUT_US: Micros = 10_000_000;
const retryDelayUs = (times: number): Micros => Math.min(times * 50, 2000) * 1000;

export class IoredisConnection {
  private status: 'ready' | 'connecting' | 'connect' | 'reconnecting' = 'reconnecting';
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

  /**
   * Opened when the client first uses it (node-redlock's clients are made at start-up): it
   * finds the server as it is then, connected if a process runs, reconnecting if not.
   */
  constructor(
    private readonly path: TcpPath,
    private readonly client: string,
    private readonly node: RedisNode,
    /** The client process: its pauses delay the timers, its death ends the connection. */
    private readonly group: ProcessGroup,
  ) {
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
    if (this.group.dead) return;
    const command: Command = { args, tag, done };
    if (this.status === 'ready' && this.socket) this.write(this.socket, command);
    else this.offlineQueue.push(command);
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
    if (!this.node.acceptConnection(onServerDeath)) return false;
    socket.onClientClose = () => {
      this.node.forgetConnection(onServerDeath);
      if (socket === this.socket) this.closeHandler();
    };
    return true;
  }

  private write(socket: TcpConnection, command: Command): void {
    this.commandQueue.push(command);
    socket.sendToServer(() => {
      if (socket.serverGone) {
        socket.resetFromServer();
        return;
      }
      this.node.execute(command.args, command.tag, (reply) => socket.sendToClient(() => this.onReply(socket, reply)));
    });
  }

  private onReply(socket: TcpConnection, reply: RedisReply): void {
    if (socket !== this.socket) return;
    this.commandQueue.shift()?.done({ status: 'ok', reply });
  }

  /** event_handler.ts closeHandler with the default retryStrategy and maxRetriesPerRequest. */
  private closeHandler(): void {
    if (this.group.dead) return;
    this.socket = null;
    this.status = 'reconnecting';
    if (this.commandQueue.length > 0) this.prevCommandQueue = this.commandQueue;
    this.retryAttempts++;
    this.after(retryDelayUs(this.retryAttempts), () => this.connect());
    if (this.retryAttempts % (MAX_RETRIES_PER_REQUEST + 1) === 0) this.flushQueue(MAX_RETRIES_PER_REQUEST_ERROR);
  }

  /** index.ts flushQueue: the offline queue and the command queue (emptied in place, as a Deque is). */
  private flushQueue(message: string): void {
    const failed = [...this.offlineQueue.splice(0), ...this.commandQueue.splice(0)];
    for (const command of failed) command.done({ status: 'error', message });
  }

  /** A handshake bounded by connectTimeout: a timer cleared when the handshake ends first. */
  private connect(): void {
    if (this.group.dead) return;
    this.status = 'connecting';
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
    this.retryAttempts = 0;
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
