/**
 * node-redis clients for a user lock module on the real backend (`lock: { module, client:
 * node-redis | node-redis@4 | node-redis@5 }`): the `redis` package the module itself would
 * import (resolved from the module's directory, as Node resolves its imports; else the one
 * lock-sim has), one client per master for `topology: independent`, else one, each connected
 * to the client process's proxy of its node before the factory gets it, as a service passes a
 * connected client (`await createClient(...).connect()`).
 *
 * Each command is noted in the key watch's ledger with the request it belongs to, and its
 * reply held until the watch's barrier, as real-own-code.ts does for ioredis: node-redis
 * 5.8.2 sends every command and script through the client's `sendCommand(args, options)`
 * (`dist/lib/client/index.js` _executeCommand, _executeScript), and MULTI/EXEC and pipelines
 * through `_executeMulti` / `_executePipeline` (their commands are noted as one batch).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { KeyWatch } from './key-watch.js';

/** What real-own-code.ts needs of a node-redis client. */
export interface NodeRedisLike {
  connect(): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  sendCommand(args: unknown[], options?: unknown): Promise<unknown>;
  destroy?: () => void;
  disconnect?: () => Promise<void> | void;
  duplicate?: (overrides?: unknown) => NodeRedisLike;
}

/** The clients a module made with `duplicate()` (a subscriber), closed with the one they came from. */
const duplicatesOf = new WeakMap<NodeRedisLike, NodeRedisLike[]>();

interface RedisPackage {
  createClient(options: { socket: { host: string; port: number; reconnectStrategy?: (retries: number) => number } }): NodeRedisLike;
}

/** The family's major version: node-redis@4 is v4, node-redis and node-redis@5 are v5 and later (v5's API). */
function majorOf(family: string): 4 | 5 {
  return family === 'node-redis@4' ? 4 : 5;
}

/**
 * The `redis` package for `moduleFile`: its own (its directory's node_modules, as its
 * `import 'redis'` would find it), else lock-sim's. A version of another API than the family
 * asks for is refused with both named.
 */
export async function loadRedisPackage(moduleFile: string, family: string): Promise<RedisPackage> {
  let entry: string;
  let version: string;
  const tryFrom = (from: string): { entry: string; version: string } | null => {
    try {
      const req = createRequire(from);
      const entryPath = req.resolve('redis');
      const pkg = req('redis/package.json') as { version: string };
      return { entry: entryPath, version: pkg.version };
    } catch {
      return null;
    }
  };
  const found = tryFrom(moduleFile) ?? tryFrom(import.meta.url);
  if (found === null) {
    throw new Error(`lock.client ${family} on the real backend needs the node-redis package: install it next to the module (npm install redis)`);
  }
  ({ entry, version } = found);
  const major = Number(version.split('.')[0]);
  const want = majorOf(family);
  if (want === 4 ? major !== 4 : major < 5) {
    throw new Error(`lock.client ${family} asks for node-redis ${want === 4 ? '4' : '5 or later'}, but the redis package found for the module is ${version}`);
  }
  return (await import(pathToFileURL(entry).href)) as RedisPackage;
}

/** The request a command belongs to, given its arguments; running code outside any request. */
type TagOf = (args: readonly string[]) => string;
type Outside = <T>(fn: () => T) => T;

/** One connected node-redis client on the proxy at `port`, its commands (and its duplicates') watched. */
export async function nodeRedisClient(pkg: RedisPackage, port: number, target: string | null, watch: KeyWatch, tagOf: TagOf, outside: Outside): Promise<NodeRedisLike> {
  // ioredis' default reconnect delays (min(times * 50, 2000)), as the simulated node-redis client has.
  const client = pkg.createClient({ socket: { host: '127.0.0.1', port, reconnectStrategy: (retries) => Math.min((retries + 1) * 50, 2000) } });
  client.on('error', () => undefined); // reconnects are node-redis's business; the module sees the failures
  watched(client, target, watch, tagOf, outside);
  await outside(() => client.connect());
  return client;
}

/** Closes a client at once (kill -9 of its process, the run's end). */
export function closeNodeRedis(client: NodeRedisLike): void {
  for (const d of duplicatesOf.get(client) ?? []) closeNodeRedis(d);
  try {
    if (typeof client.destroy === 'function') client.destroy();
    else void Promise.resolve(client.disconnect?.()).catch(() => undefined);
  } catch {
    // already closed
  }
}

const asText = (a: unknown): string => (Buffer.isBuffer(a) ? a.toString() : String(a));

function watched(client: NodeRedisLike, target: string | null, watch: KeyWatch, tagOf: TagOf, outside: Outside): void {
  // createClient() answers Object.create(new RedisClient(...)), and the commands run on the
  // instance under it (`this._self._executeCommand`, which calls `this.sendCommand`): the
  // wrappers go on that instance, so every command of the client and of its proxies
  // (withCommandOptions, a MULTI) passes them.
  const self = ((client as unknown as { _self?: NodeRedisLike })._self ?? client) as NodeRedisLike;
  const c = self as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const send = c.sendCommand.bind(self);
  if (typeof self.duplicate === 'function') {
    const duplicate = self.duplicate.bind(client);
    const made: NodeRedisLike[] = [];
    duplicatesOf.set(client, made);
    (c as unknown as Record<string, unknown>).duplicate = (overrides?: unknown) => {
      const d = duplicate(overrides);
      watched(d, target, watch, tagOf, outside);
      // A duplicate (a library's subscriber) connects outside the request that made it, so its
      // listeners run outside any request too (AsyncLocalStorage follows the socket's creation).
      const connect = d.connect.bind(d);
      d.connect = () => outside(() => connect());
      made.push(d);
      return d;
    };
  }
  c.sendCommand = (args: unknown, options?: unknown) => {
    const command = (args as unknown[]).map(asText);
    const entry = watch.ledger.sent(tagOf(command), command, target);
    const p = send(args, options);
    if (!entry) return p;
    return p.then(
      (value) => {
        const seen = Buffer.isBuffer(value) ? value.toString() : value;
        watch.ledger.replied(entry, typeof seen === 'number' || typeof seen === 'string' || seen === null ? seen : 'reply');
        return watch.barrier(target).then(() => {
          watch.ledger.delivered(entry);
          return value;
        });
      },
      (err: unknown) => {
        watch.ledger.delivered(entry);
        throw err;
      },
    );
  };
  for (const name of ['_executeMulti', '_executePipeline']) {
    const run = c[name];
    if (typeof run !== 'function') continue;
    const bound = run.bind(self);
    c[name] = (commands: unknown, ...rest: unknown[]) => {
      const entries = (commands as Array<{ args: unknown[] }>).map(({ args }) => {
        const command = args.map(asText);
        return watch.ledger.sent(tagOf(command), command, target);
      }).filter((e) => e !== null);
      if (entries.length === 0) return bound(commands, ...rest);
      const done = (): void => {
        for (const e of entries) watch.ledger.delivered(e);
      };
      return bound(commands, ...rest).then(
        (value) => {
          for (const e of entries) watch.ledger.replied(e, 'reply');
          return watch.barrier(target).then(() => {
            done();
            return value;
          });
        },
        (err: unknown) => {
          done();
          throw err;
        },
      );
    };
  }
}
