/**
 * The node-redis-compatible client a lock module gets with `lock: { module, client: node-redis }`
 * (the `redis` package's v5 API; `node-redis@4` for v4), compiled INSIDE the process's realm
 * like the glue (glue.ts), so its promises and errors are the realm's. It speaks through the
 * glue's ioredis-compatible client (one connection of the process, its timeouts, reconnects and
 * replies), and gives what node-redis gives (@redis/client 1.x for v4, 5.x for v5, lib/commands):
 * - camelCase and UPPERCASE commands (`pExpire`, `PEXPIRE`, `hGetAll`, `setNX`, ...), arguments
 *   flattened, `sendCommand([...])` for anything else;
 * - options objects: `set(k, v, { NX: true, PX: ms })` (v4 and v5) and v5's
 *   `{ condition: 'NX', expiration: { type: 'PX', value } }`; `getEx(k, { PX })`;
 *   `eval(script, { keys, arguments })`, `evalSha(sha, { keys, arguments })`, `scriptLoad`;
 * - replies: HGETALL an object; in v4 the 0/1 answers of SETNX, HSETNX, HEXISTS, EXPIRE, PEXPIRE,
 *   EXPIREAT, PEXPIREAT, PERSIST are booleans (transformBooleanReply), in v5 numbers;
 * - `subscribe(channel, listener)` with `listener(message, channel)`, `unsubscribe`;
 *   `multi()...exec()` (MULTI/EXEC; a reply that is an error rejects exec, as v5's
 *   MultiErrorReply), `duplicate()`, v4's `executeIsolated(fn)`, `connect()` (the clients
 *   given to the factory are connected already), `isOpen`/`isReady`, `quit`/`close`/
 *   `disconnect`/`destroy`; v4's `v4` property (it throws outside legacy mode, as v4 does).
 * Errors are `ErrorReply` (the server's text as the message).
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export interface NodeRedisDeps {
  EventEmitter: typeof import('node:events').EventEmitter;
  /** Makes the glue's ioredis-compatible client of connection `conn` (glue.ts SimRedis). */
  transport(conn: number): any;
  flatten(args: any[]): string[];
}

export function nodeRedisMain(deps: NodeRedisDeps): (conn: number, version: 4 | 5) => any {
  const g = globalThis as any;
  /* eslint-disable @typescript-eslint/no-shadow */
  const Promise: PromiseConstructor = g.Promise;
  const Error: ErrorConstructor = g.Error;
  const Object: ObjectConstructor = g.Object;
  const Array: ArrayConstructor = g.Array;
  const { EventEmitter, flatten } = deps;

  class ErrorReply extends Error {
    constructor(message: string) {
      super(message);
      this.name = 'ErrorReply';
    }
  }
  class MultiErrorReply extends ErrorReply {
    constructor(readonly replies: unknown[], readonly errorIndexes: number[]) {
      super(`${errorIndexes.length} commands failed, see .replies and .errorIndexes for more information`);
      this.name = 'MultiErrorReply';
    }
  }
  const asReplyError = (err: any): any => (err && err.name === 'ReplyError' ? new ErrorReply(err.message) : err);

  /** Commands by their lower-case name: node-redis' camelCase method name (lib/commands/index.ts). */
  const CAMEL: Record<string, string> = {
    pexpire: 'pExpire', pexpireat: 'pExpireAt', expireat: 'expireAt', pttl: 'pTTL', hset: 'hSet', hget: 'hGet', hgetall: 'hGetAll',
    hdel: 'hDel', hincrby: 'hIncrBy', hexists: 'hExists', hlen: 'hLen', hmget: 'hmGet', hsetnx: 'hSetNX', setnx: 'setNX',
    getset: 'getSet', getdel: 'getDel', getex: 'getEx', incrby: 'incrBy', decrby: 'decrBy', evalsha: 'evalSha', psetex: 'pSetEx',
    setex: 'setEx', expiretime: 'expireTime', pexpiretime: 'pExpireTime', zadd: 'zAdd', zrem: 'zRem', zrange: 'zRange', zcard: 'zCard',
    zscore: 'zScore', zremrangebyscore: 'zRemRangeByScore', zrangebyscore: 'zRangeByScore', sadd: 'sAdd', srem: 'sRem',
    smembers: 'sMembers', sismember: 'sIsMember', scard: 'sCard', lpush: 'lPush', rpush: 'rPush', lpop: 'lPop', rpop: 'rPop',
    llen: 'lLen', lrange: 'lRange', blpop: 'blPop', brpop: 'brPop', mget: 'mGet', mset: 'mSet', dbsize: 'dbSize', strlen: 'strLen',
    get: 'get', set: 'set', del: 'del', unlink: 'unlink', exists: 'exists', expire: 'expire', ttl: 'ttl', persist: 'persist',
    incr: 'incr', decr: 'decr', publish: 'publish', wait: 'wait', info: 'info', ping: 'ping', time: 'time', type: 'type', echo: 'echo',
    keys: 'keys', scan: 'scan', watch: 'watch', unwatch: 'unwatch', eval: 'eval',
  };
  /** v4 answers these 0/1 replies as booleans (@redis/client 1.x transformBooleanReply). */
  const V4_BOOLEAN = new Set(['setnx', 'hsetnx', 'hexists', 'expire', 'pexpire', 'expireat', 'pexpireat', 'persist', 'sismember']);

  const hashObject = (r: any): any => {
    if (!Array.isArray(r)) return r;
    const o: Record<string, unknown> = {};
    for (let i = 0; i < r.length; i += 2) o[r[i]] = r[i + 1];
    return o;
  };

  /** The arguments node-redis writes for a command given as a method call (after the name). */
  function argsOf(name: string, a: any[]): string[] {
    switch (name) {
      case 'set': {
        const [key, value, o] = a;
        const out = [String(key), String(value)];
        if (o && typeof o === 'object') {
          // v5: { expiration: { type, value } | 'KEEPTTL', condition: 'NX' | 'XX' }; v4 (and v5, deprecated): EX/PX/EXAT/PXAT/KEEPTTL/NX/XX.
          const exp = o.expiration;
          if (exp === 'KEEPTTL') out.push('KEEPTTL');
          else if (exp && typeof exp === 'object') out.push(String(exp.type), String(exp.value));
          for (const k of ['EX', 'PX', 'EXAT', 'PXAT']) if (o[k] !== undefined) out.push(k, String(o[k]));
          if (o.KEEPTTL) out.push('KEEPTTL');
          if (o.condition) out.push(String(o.condition));
          if (o.NX) out.push('NX');
          if (o.XX) out.push('XX');
          if (o.GET) out.push('GET');
        }
        return out;
      }
      case 'getex': {
        const [key, o] = a;
        const out = [String(key)];
        if (o && typeof o === 'object') {
          if (o.type !== undefined) out.push(String(o.type), ...(o.value !== undefined ? [String(o.value)] : []));
          for (const k of ['EX', 'PX', 'EXAT', 'PXAT']) if (o[k] !== undefined) out.push(k, String(o[k]));
          if (o.PERSIST) out.push('PERSIST');
        }
        return out;
      }
      case 'eval':
      case 'evalsha': {
        const [script, o] = a;
        const keys = flatten(o?.keys ?? []);
        return [String(script), String(keys.length), ...keys, ...flatten(o?.arguments ?? [])];
      }
      case 'hset': {
        const [key, ...rest] = a;
        if (rest.length === 1 && rest[0] instanceof Map) return [String(key), ...flatten([...rest[0]].flat())];
        return [String(key), ...flatten(rest)];
      }
      case 'zadd': {
        const [key, members, o] = a;
        const out = [String(key)];
        if (o?.NX) out.push('NX');
        if (o?.XX) out.push('XX');
        for (const m of Array.isArray(members) ? members : [members]) out.push(String(m.score), String(m.value));
        return out;
      }
      default:
        return flatten(a);
    }
  }

  function transform(name: string, reply: any, version: 4 | 5): any {
    if (name === 'hgetall') return hashObject(reply);
    if (version === 4 && V4_BOOLEAN.has(name) && typeof reply === 'number') return reply === 1;
    return reply;
  }

  class NodeRedisClient extends EventEmitter {
    private open = true;
    private readonly io: any;
    private readonly channelListeners = new Map<string, Set<(message: string, channel: string) => void>>();
    constructor(private readonly conn: number, readonly version: 4 | 5, io?: any) {
      super();
      this.io = io ?? deps.transport(conn);
      this.io.on('message', (channel: string, message: string) => {
        for (const l of [...(this.channelListeners.get(channel) ?? [])]) l(message, channel);
      });
      for (const [lower, camel] of Object.entries(CAMEL)) {
        const run = (...a: any[]) => this.run(lower, a);
        (this as any)[camel] = run;
        (this as any)[lower.toUpperCase()] = run;
      }
    }
    get isOpen(): boolean { return this.open; }
    get isReady(): boolean { return this.open; }
    get options(): any { return this.io.options; }
    private run(name: string, a: any[]): Promise<any> {
      if (!this.open) return Promise.reject(new Error('The client is closed'));
      return this.io.sendCommand(name, argsOf(name, a)).then((r: any) => transform(name, r, this.version), (e: any) => { throw asReplyError(e); });
    }
    sendCommand(args: any[]): Promise<any> {
      const [name, ...rest] = flatten(args);
      if (!this.open) return Promise.reject(new Error('The client is closed'));
      return this.io.sendCommand(String(name).toLowerCase(), rest).catch((e: any) => { throw asReplyError(e); });
    }
    scriptLoad(script: string): Promise<string> { return this.sendCommand(['SCRIPT', 'LOAD', script]); }
    scriptExists(...shas: any[]): Promise<any> { return this.sendCommand(['SCRIPT', 'EXISTS', ...flatten(shas)]); }
    scriptFlush(mode?: string): Promise<any> { return this.sendCommand(['SCRIPT', 'FLUSH', ...(mode ? [mode] : [])]); }
    subscribe(channels: any, listener: (message: string, channel: string) => void): Promise<void> {
      for (const c of flatten([channels])) {
        let set = this.channelListeners.get(c);
        if (!set) this.channelListeners.set(c, (set = new Set()));
        set.add(listener);
      }
      return this.io.subscribe(...flatten([channels])).then(() => undefined);
    }
    unsubscribe(channels?: any, listener?: (message: string, channel: string) => void): Promise<void> {
      const list = channels === undefined ? [...this.channelListeners.keys()] : flatten([channels]);
      const gone: string[] = [];
      for (const c of list) {
        const set = this.channelListeners.get(c);
        if (set && listener) set.delete(listener);
        if (!listener || !set || set.size === 0) {
          this.channelListeners.delete(c);
          gone.push(c);
        }
      }
      return gone.length > 0 ? this.io.unsubscribe(...gone).then(() => undefined) : Promise.resolve();
    }
    multi(): any {
      const queued: Array<{ name: string; args: string[] }> = [];
      const chain: any = {};
      for (const [lower, camel] of Object.entries(CAMEL)) {
        chain[camel] = chain[lower.toUpperCase()] = (...a: any[]) => {
          queued.push({ name: lower, args: argsOf(lower, a) });
          return chain;
        };
      }
      chain.addCommand = (args: any[]) => {
        const [name, ...rest] = flatten(args);
        queued.push({ name: String(name).toLowerCase(), args: rest });
        return chain;
      };
      const isError = (r: any): boolean => r !== null && typeof r === 'object' && !Array.isArray(r) && '__error' in r;
      chain.exec = () => this.io.sendBatch(queued.map((c) => [c.name.toUpperCase(), ...c.args])).then(({ exec }: { exec: any }) => {
        if (isError(exec)) throw new ErrorReply(exec.__error);
        const replies = (exec as any[]).map((r, i) => (isError(r) ? new ErrorReply(r.__error) : transform(queued[i].name, r, this.version)));
        const failed = replies.flatMap((r, i) => (r instanceof ErrorReply ? [i] : []));
        if (failed.length > 0) throw new MultiErrorReply(replies, failed);
        return replies;
      });
      chain.execAsPipeline = () => Promise.all(queued.map((c) => this.io.sendCommand(c.name, c.args).then((r: any) => transform(c.name, r, this.version))));
      return chain;
    }
    duplicate(): NodeRedisClient {
      return new NodeRedisClient(this.conn, this.version, this.io.duplicate());
    }
    executeIsolated<T>(fn: (client: NodeRedisClient) => Promise<T>): Promise<T> {
      return Promise.resolve().then(() => fn(this.duplicate()));
    }
    connect(): Promise<this> {
      this.open = true;
      return Promise.resolve(this);
    }
    quit(): Promise<string> {
      this.open = false;
      this.emit('end');
      return Promise.resolve('OK');
    }
    close(): Promise<void> {
      this.open = false;
      this.emit('end');
      return Promise.resolve();
    }
    disconnect(): Promise<void> { return this.close(); }
    destroy(): void { void this.close(); }
    ref(): void {}
    unref(): void {}
  }
  return (conn, version) => {
    const client = new NodeRedisClient(conn, version);
    if (version === 4) {
      Object.defineProperty(client, 'v4', { get() { throw new Error('the client is not in "legacy mode"'); }, enumerable: false });
    }
    return client;
  };
}
