/**
 * A user lock module (`lock: { module: ... }`, the contract of src/own-code/contract.ts) on
 * the real backend: the module is imported into lock-sim's own process and runs in real
 * time (its timers, clock and random numbers are the real ones: no simulated-time layer),
 * with real ioredis clients through each client process's proxies: one per master for
 * `topology: independent`, else one (Sentinel: ioredis asks the Sentinels for the primary, as
 * the built-in protocols' connections do). The factory is called once per client process and
 * again after a crash and restart; a crash disconnects that process's clients, so what the
 * module still had in flight never reaches the engine.
 *
 * The request behind each command (for the key watch, key-watch.ts) is the one whose
 * acquire or release started it, carried through the module's promises and timers by an
 * AsyncLocalStorage; a reply on a lock key reaches the module after the key watch's barrier,
 * as a built-in protocol's reply does. The scenario loader has already probed the module
 * (backends/worker/probe.ts probeModule), so a module that does not load fails before any server
 * starts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pathToFileURL } from 'node:url';
import type { Redis } from 'ioredis';
import { Signal } from '../../engine/signal.js';
import type { OwnLock, OwnLockFactory, OwnLockOptions } from '../../own-code/contract.js';
import { lockKeyAttribution } from '../../own-code/key-attribution.js';
import { RequestIdentity } from '../../own-code/request-identity.js';
import { isTypeScript } from '../../own-code/typescript.js';
import type { Settled } from '../../own-code/runtime.js';
import type { ClientHost } from '../../world/client-host.js';
import type { KeyWatch } from './key-watch.js';
import { ModuleTimers, type TimerOwner, type UncaughtSink } from './module-timers.js';
import { realTransport, type RealTransport } from './real-transport.js';
import { closeNodeRedis, loadRedisPackage, nodeRedisClient, type NodeRedisLike } from './real-node-redis.js';
import type { RealTimeDriver } from './realtime.js';

/** The request a command belongs to, through the module's promises and timers. */
const requestOf = new AsyncLocalStorage<string>();

/** The client family the factory receives (lock.client). */
type ClientFamily = 'ioredis' | 'node-redis' | 'node-redis@4' | 'node-redis@5';

interface UserClient {
  incarnation: number;
  lock: Promise<OwnLock>;
  /** ioredis connections, or node-redis clients once connected. */
  connections: Redis[];
  nodeRedis: NodeRedisLike[];
  closed: boolean;
  /** Its requests in flight, to attribute what its listeners send (request-identity.ts, commandTag). */
  identity: RequestIdentity;
  /** Its timers (held in a GC pause, cleared at kill -9 and at the run's end). */
  owner: TimerOwner;
}

/**
 * The request a command of `client` belongs to: the one its code runs for, or, for code outside
 * any request (a subscriber's listener waking a waiter), the one the lock's identity names.
 */
function commandTag(client: UserClient, args: readonly string[]): string {
  return client.identity.tagOf(requestOf.getStore() ?? '', args);
}

/** ioredis' Command as sendCommand receives it (ioredis 5 built/Command.js). */
interface IoCommand {
  name: string;
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/** What the protocol reads from a settled call: an error's name, message and whether it timed out. */
function settledError(err: unknown): Settled {
  const e = err instanceof Error ? err : new Error(String(err));
  // ioredis' commandTimeout rejects with "Command timed out" (ioredis 5.11.1 built/Command.js _clearTimers / setTimeout). lock-sim: wall-clock ok (real backend)
  return { ok: false, error: { name: e.name, message: e.message, timeout: e.message === 'Command timed out' } };
}

export class RealOwnCodeRuntime {
  private readonly clients = new Map<ClientHost, UserClient>();
  private readonly handles = new Map<number, unknown>();
  private nextHandle = 1;
  private factory: Promise<OwnLockFactory> | null = null;
  private readonly timers: ModuleTimers;
  /** Where the module's stray errors go (a timer's throw, a rejection nothing handled). */
  onUncaught: UncaughtSink | null = null;

  constructor(
    private readonly file: string,
    private readonly exportName: string,
    private readonly options: OwnLockOptions,
    private readonly independent: boolean,
    private readonly driver: RealTimeDriver,
    private readonly keyWatch: KeyWatch,
    /** ioredis (the default) or node-redis clients (real-node-redis.ts). */
    private readonly family: ClientFamily = 'ioredis',
    /** lock.keys: the patterns that read a Redis key as a request key (key-attribution.ts). */
    private readonly lockKeys: readonly string[] | null = null,
  ) {
    this.timers = new ModuleTimers(driver, (client, message) => this.onUncaught?.(client, message));
  }

  /** Loads the module and makes each process's lock before the run's time begins. */
  async warmUp(hosts: readonly ClientHost[]): Promise<void> {
    this.timers.install();
    await Promise.all(hosts.map((h) => this.clientOf(h).lock));
  }

  acquire(host: ClientHost, tag: string, key: string): Signal<Settled> {
    return this.call(host, tag, key, 'acquire', async (lock) => {
      const handle = await lock.acquire(key);
      if (handle === null || handle === undefined || handle === false) return null;
      const id = this.nextHandle++;
      this.handles.set(id, handle);
      return id;
    });
  }

  release(host: ClientHost, tag: string, handle: number, key: string): Signal<Settled> {
    return this.call(host, tag, key, 'release', async (lock) => {
      const h = this.handles.get(handle) ?? null;
      this.handles.delete(handle);
      return (await lock.release(h, key)) === true;
    });
  }

  /** kill -9 of a client process: its timers stop and its sockets close; its next call makes a new one. */
  crashed(host: ClientHost): void {
    const client = this.clients.get(host);
    if (client) this.close(client);
  }

  /** The run's end: every user client's timers stop and its sockets close. */
  dispose(): void {
    for (const c of this.clients.values()) this.close(c);
    this.clients.clear();
  }

  /** After the servers stopped: Node's timer functions back (what failed in flight was ignored). */
  detach(): void {
    this.timers.uninstall();
  }

  private close(client: UserClient): void {
    client.closed = true;
    client.identity.clear();
    this.timers.close(client.owner);
    for (const r of client.connections) r.disconnect();
    for (const r of client.nodeRedis) closeNodeRedis(r);
  }

  private call(host: ClientHost, tag: string, key: string, op: 'acquire' | 'release', body: (lock: OwnLock) => Promise<number | boolean | null>): Signal<Settled> {
    const signal = new Signal<Settled>('own-code call');
    const client = this.clientOf(host);
    const incarnation = client.incarnation;
    client.identity.begin(tag, key, op);
    requestOf.run(tag, () => this.timers.run(client.owner, () => {
      client.lock.then(body).then(
        (value): Settled => ({ ok: true, value }),
        settledError,
      ).then((settled) => {
        // The request whose acquire returned the lock holds what was written for it by guess
        // (a waiter's lock taken in a listener), as the model's runtime reattributes it.
        const taken = client.identity.settled(tag, op, settled.ok && typeof settled.value === 'number');
        return this.driver.inject(() => {
          for (const g of taken) this.keyWatch.reattribute(g.redisKey, g.guessedTag, tag);
          if (host.incarnation === incarnation) signal.fire(settled);
        });
      });
    }));
    return signal;
  }

  /** The process's user client; a process that crashed and restarted gets a new one. */
  private clientOf(host: ClientHost): UserClient {
    const known = this.clients.get(host);
    if (known && known.incarnation === host.incarnation) return known;
    if (known) this.close(known);
    const transport = realTransport(host.transport);
    const nodes = this.independent ? transport.lockNodeNames : [null];
    const owner = this.timers.owner(host);
    const identity = new RequestIdentity('', lockKeyAttribution(this.lockKeys));
    const client: UserClient = { incarnation: host.incarnation, lock: Promise.resolve(null as never), connections: [], nodeRedis: [], closed: false, owner, identity };
    let handed: Promise<unknown[]>;
    if (this.family === 'ioredis') {
      client.connections = nodes.map((node) => this.watched(transport.newConnection(node), node, client));
      handed = Promise.resolve(client.connections);
    } else {
      handed = this.nodeRedisClients(transport, nodes, client);
    }
    const lock = Promise.all([this.loadFactory(), handed]).then(([factory, connections]) => this.timers.run(owner, () => factory(connections as never, { ...this.options })));
    lock.catch(() => undefined); // the error reaches each call that awaits it
    client.lock = lock;
    this.clients.set(host, client);
    return client;
  }

  /**
   * node-redis clients on the proxies the process's ioredis connections would use (a Sentinel
   * topology is refused: node-redis 5 finds a primary through createSentinel, which is not
   * wired here).
   */
  private async nodeRedisClients(transport: RealTransport, nodes: Array<string | null>, client: UserClient): Promise<NodeRedisLike[]> {
    const pkg = await loadRedisPackage(this.file, this.family);
    const out: NodeRedisLike[] = [];
    for (const node of nodes) {
      // The proxy's address, as ioredis is given it (real-transport.ts options).
      const probe = transport.newConnection(node);
      const { port, sentinels } = probe.options;
      probe.disconnect();
      if (sentinels) throw new Error(`lock.client ${this.family} on the real backend: topology sentinel is not supported (use ioredis, or the simulator)`);
      const target = node ?? 'redis-0';
      // A command sent outside any request (a subscriber's listener waking a waiter) goes to the
      // request the lock's identity names; the clients' sockets are made outside any request,
      // so their events do not carry the request that happened to connect them.
      const c = await nodeRedisClient(pkg, port ?? 6379, target, this.keyWatch, (args) => commandTag(client, args), (fn) => requestOf.exit(fn));
      if (client.closed) closeNodeRedis(c);
      client.nodeRedis.push(c);
      out.push(c);
    }
    return out;
  }

  private loadFactory(): Promise<OwnLockFactory> {
    // Node 20 imports no .ts (its type stripping came in 22.6), and this backend imports the
    // module into lock-sim's own process: refused with the way out, not "Unknown file extension".
    if (isTypeScript(this.file)) {
      this.factory ??= Promise.reject(new Error(`lock module ${this.file}: a TypeScript module runs on the simulator; for the real backend compile it to JavaScript (tsc) and name the .js`));
      this.factory.catch(() => undefined);
    }
    this.factory ??= import(pathToFileURL(this.file).href).then((mod: Record<string, unknown>) => {
      const f = mod[this.exportName];
      if (typeof f !== 'function') throw new Error(`lock module ${this.file}: export "${this.exportName}" is not a factory function`);
      return f as OwnLockFactory;
    });
    return this.factory;
  }

  /**
   * Notes each command on a lock key in the key watch's ledger with the request it belongs
   * to, and holds its reply until the watch's barrier (see key-watch.ts). A command sent
   * outside any request (a subscriber's message listener waking a waiter: the connection was
   * made outside any request, so its events carry none) goes to the request the lock's
   * identity names, as on the simulator and for node-redis (request-identity.ts). A
   * duplicate() connects outside any request for the same reason (AsyncLocalStorage follows a
   * socket from where it was made: a subscriber duplicated in a request's acquire would carry
   * that request into every message it hears), is watched too, and closes with the process.
   */
  private watched(redis: Redis, node: string | null, client: UserClient): Redis {
    const duplicate = redis.duplicate.bind(redis);
    (redis as unknown as { duplicate: (...args: unknown[]) => Redis }).duplicate = (...args: unknown[]) => {
      const d = this.watched(requestOf.exit(() => duplicate(...(args as Parameters<Redis['duplicate']>))), node, client);
      client.connections.push(d);
      if (client.closed) d.disconnect();
      return d;
    };
    const watch = this.keyWatch;
    const target = node ?? (redis.options.sentinels ? null : 'redis-0');
    const seen = new WeakSet<object>();
    const send = redis.sendCommand.bind(redis) as (command: IoCommand, stream?: unknown) => unknown;
    (redis as unknown as { sendCommand: (command: IoCommand, stream?: unknown) => unknown }).sendCommand = (command, stream) => {
      if (!seen.has(command)) {
        seen.add(command);
        const args = [command.name, ...command.args.map((a) => (Buffer.isBuffer(a) ? a.toString() : String(a)))];
        const entry = watch.ledger.sent(commandTag(client, args), args, target);
        if (entry) {
          const resolve = command.resolve;
          const reject = command.reject;
          command.resolve = (value) => {
            const seen = Buffer.isBuffer(value) ? value.toString() : value;
            watch.ledger.replied(entry, typeof seen === 'number' || typeof seen === 'string' || seen === null ? seen : 'reply');
            void watch.barrier(target).then(() => {
              watch.ledger.delivered(entry);
              resolve(value);
            });
          };
          command.reject = (err) => {
            watch.ledger.delivered(entry);
            reject(err);
          };
        }
      }
      return send(command, stream);
    };
    return redis;
  }
}
