/**
 * The node-redis-compatible client a lock module gets with `lock: { module, client: node-redis }`
 * (the `redis` package's v5 API; `node-redis@4` for v4), compiled INSIDE the process's realm
 * like the glue (realm-bridge.ts), so its promises and errors are the realm's. It speaks through the
 * glue's ioredis-compatible client (one connection of the process, its timeouts, reconnects and
 * replies), and gives what node-redis gives (@redis/client 1.x for v4, 5.x for v5, lib/commands):
 * - camelCase and UPPERCASE commands (`pExpire`, `PEXPIRE`, `hGetAll`, `setNX`, ...), arguments
 *   flattened, `sendCommand([...])` for anything else;
 * - options objects: `set(k, v, { NX: true, PX: ms })` (v4 and v5) and v5's
 *   `{ condition: 'NX', expiration: { type: 'PX', value } }`; `getEx(k, { PX })`;
 *   `eval(script, { keys, arguments })`, `evalSha(sha, { keys, arguments })`, `scriptLoad`;
 * - replies as each method gives them (the command table below): HGETALL an object; in v4 the
 *   0/1 answers of SETNX, HSETNX, HEXISTS, SISMEMBER, SMOVE, MSETNX, EXPIRE, PEXPIRE, EXPIREAT,
 *   PEXPIREAT, PERSIST are booleans (transformBooleanReply), in v5 numbers; scores are numbers;
 *   blPop { key, element }, zPopMin { value, score }, zRangeWithScores [{ value, score }], scan
 *   { cursor, keys } (a number in v4, a string in v5), scanIterator and its kin;
 * - `subscribe(channel, listener)` with `listener(message, channel)`, `unsubscribe`;
 *   `multi()...exec()` (MULTI/EXEC; a reply that is an error rejects exec, as v5's
 *   MultiErrorReply), `duplicate()`, v4's `executeIsolated(fn)`, `connect()` (the clients
 *   given to the factory are connected already), `isOpen`/`isReady`, `quit`/`close`/
 *   `disconnect`/`destroy`; v4's `v4` property (it throws outside legacy mode, as v4 does).
 * Errors are `ErrorReply` (the server's text as the message).
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
interface NodeRedisDeps {
  EventEmitter: typeof import('node:events').EventEmitter;
  /** Makes the glue's ioredis-compatible client of connection `conn` (realm-bridge.ts SimRedis). */
  transport(conn: number): any;
  flatten(args: any[]): string[];
  /** An error element of a reply as the ioredis-compatible client gives it (its ReplyError). */
  isReplyError(r: unknown): r is Error;
}

export function nodeRedisMain(deps: NodeRedisDeps): (conn: number, version: 4 | 5) => any {
  const g = globalThis as any;
  /* eslint-disable @typescript-eslint/no-shadow */
  const Promise: PromiseConstructor = g.Promise;
  const Error: ErrorConstructor = g.Error;
  const Object: ObjectConstructor = g.Object;
  const Array: ArrayConstructor = g.Array;
  const { EventEmitter, flatten, isReplyError } = deps;

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

  // ---- The command table: node-redis' method names, the arguments they write and the replies
  // they give back (@redis/client 1.6.1 for v4: lib/client/commands.ts, lib/cluster/commands.ts,
  // lib/commands/*.ts; 5.12.1 for v5: lib/commands/index.ts, RESP2 replies without a type
  // mapping). Every method also has its UPPERCASE name (the file's name: ZRANGE_WITHSCORES). ----

  type Version = 4 | 5;
  /** One method: the Redis command it sends, its arguments after the name, its reply as the method resolves it. */
  interface Method {
    cmd: string;
    args: (a: any[]) => string[];
    reply: (r: any, version: Version) => any;
  }
  const raw = (r: any): any => r;
  const flat = (a: any[]): string[] => flatten(a);
  const str = (x: any): string => String(x);
  /** generic-transformers transformNumberInfinityArgument / transformDoubleArgument. */
  const num = (x: any): string => (x === Infinity ? '+inf' : x === -Infinity ? '-inf' : String(x));
  /** transformStringNumberInfinityArgument: a string as it is, a number as num(). */
  const strNum = (x: any): string => (typeof x === 'number' ? num(x) : String(x));
  /**
   * A double reply: v4 transformNumberInfinityReply ('+inf' / '-inf', else Number(): the "inf"
   * Redis 7 answers becomes NaN, as in v4); v5 transformDoubleReply ('inf' and '+inf' too).
   */
  const dbl = (r: any, v: Version): number => {
    const t = r.toString();
    if (t === '+inf' || (v === 5 && t === 'inf')) return Infinity;
    if (t === '-inf') return -Infinity;
    return Number(r);
  };
  const nullableDbl = (r: any, v: Version): any => (r === null ? null : dbl(r, v));
  /** v4 transformBooleanReply; v5 answers the integer. */
  const bool = (r: any, v: Version): any => (v === 4 && typeof r === 'number' ? r === 1 : r);
  const hashObject = (r: any): any => {
    if (!Array.isArray(r)) return r;
    const o: Record<string, unknown> = {};
    for (let i = 0; i < r.length; i += 2) o[r[i]] = r[i + 1];
    return o;
  };
  /** [value, score, value, score, ...] as [{ value, score }] (transformSortedSetWithScoresReply / transformSortedSetReply). */
  const withScores = (r: any, v: Version): any => {
    const out: any[] = [];
    for (let i = 0; i < r.length; i += 2) out.push({ value: r[i], score: dbl(r[i + 1], v) });
    return out;
  };
  /** ZPOPMIN / ZPOPMAX without a count: { value, score } or null (transformSortedSetMemberNullReply). */
  const popMember = (r: any, v: Version): any => (!r.length ? null : { value: r[0], score: dbl(r[1], v) });
  /** pushVerdictArguments: one key or an array of them. */
  const keysOf = (k: any): string[] => flatten([k]);
  /** pushVerdictArgument: the number of keys, then the keys (LMPOP, ZMPOP). */
  const countedKeys = (k: any): string[] => {
    const ks = keysOf(k);
    return [String(ks.length), ...ks];
  };
  const countOption = (o: any): string[] => (o?.COUNT ? ['COUNT', String(o.COUNT)] : []);
  const limitOption = (o: any): string[] => (o?.LIMIT ? ['LIMIT', String(o.LIMIT.offset), String(o.LIMIT.count)] : []);
  /** SCAN's cursor, MATCH, COUNT (pushScanArguments / parseScanArguments). */
  const scanArgs = (cursor: any, o: any): string[] => [String(cursor), ...(o?.MATCH ? ['MATCH', String(o.MATCH)] : []), ...(o?.COUNT ? ['COUNT', String(o.COUNT)] : [])];
  /** v4 reads a SCAN cursor as a number, v5 keeps the string. */
  const cursorOf = (c: any, v: Version): any => (v === 4 ? Number(c) : c);
  const zrangeArgs = (key: any, min: any, max: any, o: any): string[] => [
    String(key), strNum(min), strNum(max), ...(o?.BY === 'SCORE' ? ['BYSCORE'] : o?.BY === 'LEX' ? ['BYLEX'] : []), ...(o?.REV ? ['REV'] : []), ...limitOption(o),
  ];
  const lposArgs = (key: any, element: any, o: any): string[] => [String(key), String(element), ...(typeof o?.RANK === 'number' ? ['RANK', String(o.RANK)] : [])];
  const maxlenOption = (o: any): string[] => (typeof o?.MAXLEN === 'number' ? ['MAXLEN', String(o.MAXLEN)] : []);
  /** ZADD's options: v4 NX, else XX then GT or LT; v5 condition / NX / XX, then comparison / LT / GT; both then CH (and v4 INCR). */
  const zaddOptions = (o: any): string[] => {
    const out: string[] = [];
    if (o?.condition) out.push(String(o.condition));
    else if (o?.NX) out.push('NX');
    else if (o?.XX) out.push('XX');
    if (o?.comparison) out.push(String(o.comparison));
    else if (o?.GT && !o?.NX) out.push('GT');
    else if (o?.LT && !o?.NX) out.push('LT');
    if (o?.CH) out.push('CH');
    return out;
  };
  const zaddMembers = (members: any): string[] => (Array.isArray(members) ? members : [members]).flatMap((m: any) => [num(m.score), String(m.value)]);
  const bzpopReply = (r: any, v: Version): any => (!r ? null : { key: r[0], value: r[1], score: dbl(r[2], v) });
  /** ZMPOP / BZMPOP: v4 { key, elements }, v5 { key, members }, each [{ value, score }]. */
  const zmpopReply = (r: any, v: Version): any => {
    if (r === null) return null;
    const members = r[1].map((m: any) => ({ value: m[0], score: dbl(m[1], v) }));
    return v === 4 ? { key: r[0], elements: members } : { key: r[0], members };
  };

  const M = (cmd: string, args: (a: any[]) => string[] = flat, reply: (r: any, v: Version) => any = raw): Method => ({ cmd, args, reply });
  const B = (cmd: string): Method => M(cmd, flat, bool);

  /** Every method of the table by its camelCase name, with the UPPERCASE name it also has. */
  const TABLE: Array<[camel: string, upper: string, method: Method]> = [
    // Strings and keys.
    ['get', 'GET', M('get')], ['del', 'DEL', M('del')], ['unlink', 'UNLINK', M('unlink')], ['exists', 'EXISTS', M('exists')],
    ['expire', 'EXPIRE', B('expire')], ['pExpire', 'PEXPIRE', B('pexpire')], ['expireAt', 'EXPIREAT', B('expireat')], ['pExpireAt', 'PEXPIREAT', B('pexpireat')],
    ['ttl', 'TTL', M('ttl')], ['pTTL', 'PTTL', M('pttl')], ['persist', 'PERSIST', B('persist')], ['expireTime', 'EXPIRETIME', M('expiretime')],
    ['pExpireTime', 'PEXPIRETIME', M('pexpiretime')], ['setNX', 'SETNX', B('setnx')], ['setEx', 'SETEX', M('setex')], ['pSetEx', 'PSETEX', M('psetex')],
    ['getSet', 'GETSET', M('getset')], ['getDel', 'GETDEL', M('getdel')], ['mGet', 'MGET', M('mget')], ['mSet', 'MSET', M('mset')], ['mSetNX', 'MSETNX', B('msetnx')],
    ['strLen', 'STRLEN', M('strlen')], ['incr', 'INCR', M('incr')], ['incrBy', 'INCRBY', M('incrby')], ['decr', 'DECR', M('decr')], ['decrBy', 'DECRBY', M('decrby')],
    ['echo', 'ECHO', M('echo')], ['type', 'TYPE', M('type')], ['keys', 'KEYS', M('keys')], ['touch', 'TOUCH', M('touch')], ['dbSize', 'DBSIZE', M('dbsize')],
    ['objectEncoding', 'OBJECT_ENCODING', M('object', (a) => ['ENCODING', str(a[0])])], ['objectRefCount', 'OBJECT_REFCOUNT', M('object', (a) => ['REFCOUNT', str(a[0])])],
    ['objectFreq', 'OBJECT_FREQ', M('object', (a) => ['FREQ', str(a[0])])],
    ['set', 'SET', M('set', (a) => {
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
    })],
    ['getEx', 'GETEX', M('getex', (a) => {
      const [key, o] = a;
      const out = [String(key)];
      if (o && typeof o === 'object') {
        if (o.type !== undefined) out.push(String(o.type), ...(o.value !== undefined ? [String(o.value)] : []));
        for (const k of ['EX', 'PX', 'EXAT', 'PXAT']) if (o[k] !== undefined) out.push(k, String(o[k]));
        if (o.PERSIST) out.push('PERSIST');
      }
      return out;
    })],
    // Server, scripts, pub/sub, the connection.
    ['publish', 'PUBLISH', M('publish')], ['wait', 'WAIT', M('wait')], ['info', 'INFO', M('info')], ['ping', 'PING', M('ping')],
    ['time', 'TIME', M('time', flat, (r, v) => {
      if (v === 5) return r;
      // v4 TIME: a Date with its microseconds.
      const d: any = new Date(Number(r[0]) * 1000 + Number(r[1]) / 1000); // lock-sim: wall-clock ok (built from the simulated TIME reply; no clock is read)
      d.microseconds = Number(r[1]);
      return d;
    })],
    ['eval', 'EVAL', M('eval', evalArgs)], ['evalSha', 'EVALSHA', M('evalsha', evalArgs)],
    ['watch', 'WATCH', M('watch')], ['unwatch', 'UNWATCH', M('unwatch')],
    ['clientId', 'CLIENT_ID', M('client', () => ['ID'])], ['clientSetName', 'CLIENT_SETNAME', M('client', (a) => ['SETNAME', str(a[0])])],
    ['clientGetName', 'CLIENT_GETNAME', M('client', () => ['GETNAME'])],
    ['pubSubChannels', 'PUBSUB_CHANNELS', M('pubsub', (a) => ['CHANNELS', ...(a[0] ? [str(a[0])] : [])])],
    ['pubSubNumSub', 'PUBSUB_NUMSUB', M('pubsub', (a) => ['NUMSUB', ...(a[0] ? keysOf(a[0]) : [])], (r, v) => {
      const o: Record<string, any> = Object.create(null);
      for (let i = 0; i < r.length; i += 2) o[r[i]] = v === 5 ? Number(r[i + 1]) : r[i + 1];
      return o;
    })],
    ['pubSubNumPat', 'PUBSUB_NUMPAT', M('pubsub', () => ['NUMPAT'])],
    // Hashes.
    ['hSet', 'HSET', M('hset', (a) => {
      const [key, ...rest] = a;
      if (rest.length === 1 && rest[0] instanceof Map) return [String(key), ...flatten([...rest[0]].flat())];
      return [String(key), ...flatten(rest)];
    })],
    ['hGet', 'HGET', M('hget')], ['hGetAll', 'HGETALL', M('hgetall', flat, hashObject)], ['hDel', 'HDEL', M('hdel')], ['hIncrBy', 'HINCRBY', M('hincrby')],
    ['hExists', 'HEXISTS', B('hexists')], ['hLen', 'HLEN', M('hlen')], ['hmGet', 'HMGET', M('hmget')], ['hSetNX', 'HSETNX', B('hsetnx')], ['hKeys', 'HKEYS', M('hkeys')],
    ['hVals', 'HVALS', M('hvals')], ['hStrLen', 'HSTRLEN', M('hstrlen')],
    // Sets.
    ['sAdd', 'SADD', M('sadd')], ['sRem', 'SREM', M('srem')], ['sMembers', 'SMEMBERS', M('smembers')], ['sIsMember', 'SISMEMBER', B('sismember')],
    ['smIsMember', 'SMISMEMBER', M('smismember', flat, (r, v) => (v === 4 ? r.map((x: any) => x === 1) : r))], ['sCard', 'SCARD', M('scard')], ['sMove', 'SMOVE', B('smove')],
    // Lists.
    ['lPush', 'LPUSH', M('lpush')], ['rPush', 'RPUSH', M('rpush')], ['lPushX', 'LPUSHX', M('lpushx')], ['rPushX', 'RPUSHX', M('rpushx')],
    ['lPop', 'LPOP', M('lpop')], ['rPop', 'RPOP', M('rpop')], ['lPopCount', 'LPOP_COUNT', M('lpop')], ['rPopCount', 'RPOP_COUNT', M('rpop')],
    ['lLen', 'LLEN', M('llen')], ['lRange', 'LRANGE', M('lrange')], ['lIndex', 'LINDEX', M('lindex')], ['lSet', 'LSET', M('lset')], ['lRem', 'LREM', M('lrem')],
    ['lTrim', 'LTRIM', M('ltrim')], ['lInsert', 'LINSERT', M('linsert')], ['lMove', 'LMOVE', M('lmove')], ['rPopLPush', 'RPOPLPUSH', M('rpoplpush')],
    ['lPos', 'LPOS', M('lpos', (a) => [...lposArgs(a[0], a[1], a[2]), ...maxlenOption(a[2])])],
    ['lPosCount', 'LPOS_COUNT', M('lpos', (a) => [...lposArgs(a[0], a[1], a[3]), 'COUNT', String(a[2]), ...maxlenOption(a[3])])],
    ['lmPop', 'LMPOP', M('lmpop', (a) => [...countedKeys(a[0]), String(a[1]), ...countOption(a[2])])],
    ['blPop', 'BLPOP', M('blpop', (a) => [...keysOf(a[0]), String(a[1])], (r) => (r === null ? null : { key: r[0], element: r[1] }))],
    ['brPop', 'BRPOP', M('brpop', (a) => [...keysOf(a[0]), String(a[1])], (r) => (r === null ? null : { key: r[0], element: r[1] }))],
    ['blMove', 'BLMOVE', M('blmove')], ['brPopLPush', 'BRPOPLPUSH', M('brpoplpush')],
    ['blmPop', 'BLMPOP', M('blmpop', (a) => [String(a[0]), ...countedKeys(a[1]), String(a[2]), ...countOption(a[3])])],
    // Sorted sets.
    ['zAdd', 'ZADD', M('zadd', (a) => [String(a[0]), ...zaddOptions(a[2]), ...(a[2]?.INCR ? ['INCR'] : []), ...zaddMembers(a[1])], (r, v) => dbl(r, v))],
    ['zAddIncr', 'ZADD_INCR', M('zadd', (a) => [String(a[0]), ...zaddOptions(a[2]), 'INCR', ...zaddMembers(a[1])], nullableDbl)],
    ['zIncrBy', 'ZINCRBY', M('zincrby', (a) => [String(a[0]), num(a[1]), String(a[2])], (r, v) => dbl(r, v))],
    ['zRem', 'ZREM', M('zrem')], ['zCard', 'ZCARD', M('zcard')], ['zRank', 'ZRANK', M('zrank')], ['zRevRank', 'ZREVRANK', M('zrevrank')],
    ['zScore', 'ZSCORE', M('zscore', flat, nullableDbl)], ['zmScore', 'ZMSCORE', M('zmscore', flat, (r, v) => r.map((x: any) => nullableDbl(x, v)))],
    ['zCount', 'ZCOUNT', M('zcount', (a) => [String(a[0]), strNum(a[1]), strNum(a[2])])], ['zLexCount', 'ZLEXCOUNT', M('zlexcount', (a) => [String(a[0]), strNum(a[1]), strNum(a[2])])],
    ['zRange', 'ZRANGE', M('zrange', (a) => zrangeArgs(a[0], a[1], a[2], a[3]))],
    ['zRangeWithScores', 'ZRANGE_WITHSCORES', M('zrange', (a) => [...zrangeArgs(a[0], a[1], a[2], a[3]), 'WITHSCORES'], withScores)],
    ['zRangeByScore', 'ZRANGEBYSCORE', M('zrangebyscore', (a) => [String(a[0]), strNum(a[1]), strNum(a[2]), ...limitOption(a[3])])],
    ['zRangeByScoreWithScores', 'ZRANGEBYSCORE_WITHSCORES', M('zrangebyscore', (a) => [String(a[0]), strNum(a[1]), strNum(a[2]), ...limitOption(a[3]), 'WITHSCORES'], withScores)],
    ['zRangeByLex', 'ZRANGEBYLEX', M('zrangebylex', (a) => [String(a[0]), strNum(a[1]), strNum(a[2]), ...limitOption(a[3])])],
    ['zRemRangeByScore', 'ZREMRANGEBYSCORE', M('zremrangebyscore', (a) => [String(a[0]), strNum(a[1]), strNum(a[2])])],
    ['zRemRangeByRank', 'ZREMRANGEBYRANK', M('zremrangebyrank')], ['zRemRangeByLex', 'ZREMRANGEBYLEX', M('zremrangebylex', (a) => [String(a[0]), strNum(a[1]), strNum(a[2])])],
    ['zPopMin', 'ZPOPMIN', M('zpopmin', (a) => [String(a[0])], popMember)], ['zPopMax', 'ZPOPMAX', M('zpopmax', (a) => [String(a[0])], popMember)],
    ['zPopMinCount', 'ZPOPMIN_COUNT', M('zpopmin', flat, withScores)], ['zPopMaxCount', 'ZPOPMAX_COUNT', M('zpopmax', flat, withScores)],
    ['zmPop', 'ZMPOP', M('zmpop', (a) => [...countedKeys(a[0]), String(a[1]), ...countOption(a[2])], zmpopReply)],
    ['bzPopMin', 'BZPOPMIN', M('bzpopmin', (a) => [...keysOf(a[0]), String(a[1])], bzpopReply)], ['bzPopMax', 'BZPOPMAX', M('bzpopmax', (a) => [...keysOf(a[0]), String(a[1])], bzpopReply)],
    ['bzmPop', 'BZMPOP', M('bzmpop', (a) => [String(a[0]), ...countedKeys(a[1]), String(a[2]), ...countOption(a[3])], zmpopReply)],
    // The SCAN family: v4 a numeric cursor and { keys | tuples | members }, v5 the cursor string and { keys | entries | members }.
    ['scan', 'SCAN', M('scan', (a) => [...scanArgs(a[0], a[1]), ...(a[1]?.TYPE ? ['TYPE', String(a[1].TYPE)] : [])], (r, v) => ({ cursor: cursorOf(r[0], v), keys: r[1] }))],
    ['hScan', 'HSCAN', M('hscan', (a) => [String(a[0]), ...scanArgs(a[1], a[2])], (r, v) => {
      const pairs: any[] = [];
      for (let i = 0; i < r[1].length; i += 2) pairs.push({ field: r[1][i], value: r[1][i + 1] });
      return v === 4 ? { cursor: cursorOf(r[0], v), tuples: pairs } : { cursor: r[0], entries: pairs };
    })],
    ['sScan', 'SSCAN', M('sscan', (a) => [String(a[0]), ...scanArgs(a[1], a[2])], (r, v) => ({ cursor: cursorOf(r[0], v), members: r[1] }))],
    ['zScan', 'ZSCAN', M('zscan', (a) => [String(a[0]), ...scanArgs(a[1], a[2])], (r, v) => ({ cursor: cursorOf(r[0], v), members: withScores(r[1], v) }))],
  ];
  /** eval(script, { keys, arguments }) and evalSha(sha, { keys, arguments }). */
  function evalArgs(a: any[]): string[] {
    const [script, o] = a;
    const keys = flatten(o?.keys ?? []);
    return [String(script), String(keys.length), ...keys, ...flatten(o?.arguments ?? [])];
  }
  /** The methods by name, camelCase and UPPERCASE. */
  const METHODS = new Map<string, Method>();
  for (const [camel, upper, method] of TABLE) {
    METHODS.set(camel, method);
    METHODS.set(upper, method);
  }
  /** Methods v4 does not have (@redis/client 1.6.1 has no ZADD_INCR: its zAdd takes { INCR: true }). */
  const V5_ONLY: ReadonlySet<string> = new Set(['zAddIncr', 'ZADD_INCR']);
  /** SCAN iterators: v4 yields each key / tuple / member, v5 each call's batch (lib/client/index.ts scanIterator ...). */
  const ITERATORS: Array<[name: string, scan: string, field: string, keyed: boolean]> = [
    ['scanIterator', 'scan', 'keys', false], ['hScanIterator', 'hScan', 'tuples', true], ['sScanIterator', 'sScan', 'members', true], ['zScanIterator', 'zScan', 'members', true],
  ];

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
      for (const [name, method] of METHODS) if (version === 5 || !V5_ONLY.has(name)) (this as any)[name] = (...a: any[]) => this.run(method, a);
      for (const [name, scan, field, keyed] of ITERATORS) {
        const self = this as any;
        self[name] = async function* (...a: any[]) {
          const key = keyed ? a[0] : undefined;
          const options = keyed ? a[1] : a[0];
          let cursor: any = version === 4 ? 0 : (options?.cursor ?? '0');
          do {
            const reply = keyed ? await self[scan](key, cursor, options) : await self[scan](cursor, options);
            cursor = reply.cursor;
            const batch = reply[version === 5 && field === 'tuples' ? 'entries' : field];
            if (version === 5) yield batch;
            else yield* batch;
          } while (version === 4 ? cursor !== 0 : cursor !== '0');
        };
      }
    }
    get isOpen(): boolean { return this.open; }
    get isReady(): boolean { return this.open; }
    get options(): any { return this.io.options; }
    private run(method: Method, a: any[]): Promise<any> {
      if (!this.open) return Promise.reject(new Error('The client is closed'));
      return this.io.sendCommand(method.cmd, method.args(a)).then((r: any) => method.reply(r, this.version), (e: any) => { throw asReplyError(e); });
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
      const queued: Array<{ name: string; args: string[]; reply: (r: any, v: Version) => any }> = [];
      const chain: any = {};
      for (const [name, method] of METHODS) {
        if (this.version === 4 && V5_ONLY.has(name)) continue;
        chain[name] = (...a: any[]) => {
          queued.push({ name: method.cmd, args: method.args(a), reply: method.reply });
          return chain;
        };
      }
      chain.addCommand = (args: any[]) => {
        const [name, ...rest] = flatten(args);
        queued.push({ name: String(name).toLowerCase(), args: rest, reply: raw });
        return chain;
      };
      chain.exec = () => this.io.sendBatch(queued.map((c) => [c.name.toUpperCase(), ...c.args])).then(({ exec }: { exec: any }) => {
        if (isReplyError(exec)) throw new ErrorReply(exec.message);
        const replies = (exec as any[]).map((r, i) => (isReplyError(r) ? new ErrorReply(r.message) : queued[i].reply(r, this.version)));
        const failed = replies.flatMap((r, i) => (r instanceof ErrorReply ? [i] : []));
        if (failed.length > 0) throw new MultiErrorReply(replies, failed);
        return replies;
      });
      chain.execAsPipeline = () => Promise.all(queued.map((c) => this.io.sendCommand(c.name, c.args).then((r: any) => c.reply(r, this.version))));
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
