/**
 * The Redis commands lock-sim models, executed against one keyspace at one instant.
 * Semantics, argument checks and error texts follow redis 7.0.15 (src/t_string.c, t_hash.c,
 * expire.c, db.c, server.c processCommand; TTLs replicated as absolute times since 7.0,
 * redis/redis#8474). test/conformance runs the same command sequences on this model and on a
 * real redis-server 7.0.15 and compares every reply and the keyspace after each step.
 *
 * Commands that need the node beyond its keyspace (PUBLISH, WAIT, INFO, EVAL, EVALSHA, SCRIPT,
 * MULTI/EXEC, CLIENT, the pub/sub commands, QUIT, RESET, and the blocking of BLPOP and its kin)
 * are executed by RedisNode; their arity and flags live in COMMAND_SPECS too, so the node,
 * transactions and scripts check every command the same way. The other types' commands live in
 * their own files (set-, list-, zset-, scan-, key-commands.ts); anything else is Redis's
 * unknown-command error.
 */
import type { Keyspace } from './keyspace.js';
import { STRING_HANDLERS, STRING_SPECS } from './string-commands.js';
import type { CommandDef, Handler } from './command-def.js';
import { SET_COMMANDS } from './set-commands.js';
import { LIST_COMMANDS } from './list-commands.js';
import { ZSET_COMMANDS } from './zset-commands.js';
import { SCAN_COMMANDS, typeName } from './scan-commands.js';
import { KEY_COMMANDS } from './key-commands.js';
import { HASH_COMMANDS } from './hash-commands.js';
import { COMPARE_COMMANDS, conditionArgError, conditionHolds } from './compare-commands.js';
import { serverHasCommand, setConditionOf, VERSIONED_COMMANDS, type SetCondition } from './server-versions.js';
import type { ServerVersion } from '../../spec/redis.js';
import {
  ERR_NOT_INTEGER,
  ERR_OVERFLOW,
  ERR_SYNTAX,
  ERR_WRONGTYPE,
  INT64_MAX,
  INT64_MIN,
  integerReply,
  invalidExpire,
  parseInt64,
  RedisErrorReply,
  type RedisReply,
  wrongArgs,
} from './reply.js';

/**
 * A command's declared shape (redis 7.0.15 src/commands/<name>.json): `arity` is the exact
 * argument count including the name when positive, the minimum when negative; `write` is the
 * WRITE flag (refused by a replica: READONLY; by a primary short of good replicas:
 * NOREPLICAS); `noscript` is the NOSCRIPT flag (refused inside EVAL); `blocking` the BLOCKING
 * flag (the node may block the client).
 */
interface CommandSpec {
  arity: number;
  write: boolean;
  noscript: boolean;
  blocking?: boolean;
  /** Subcommands of a container command (SCRIPT, CLIENT, OBJECT, PUBSUB), with their own arity and flags. */
  subcommands?: Readonly<Record<string, CommandSpec>>;
}

const spec = (arity: number, write = false, noscript = false): CommandSpec => ({ arity, write, noscript });

/** A spec from a CommandDef's flags (command-def.ts). */
const specOf = (arity: number, flags: string): CommandSpec =>
  flags.includes('b') ? { arity, write: flags.includes('w'), noscript: flags.includes('n'), blocking: true } : spec(arity, flags.includes('w'), flags.includes('n'));

/** A container's subcommands: name, arity, flags (src/commands/<container>-<sub>.json). */
const subcommands = (list: ReadonlyArray<readonly [string, number, string]>): Readonly<Record<string, CommandSpec>> =>
  Object.fromEntries(list.map(([name, arity, flags]) => [name, specOf(arity, flags)]));

/** OBJECT ENCODING / FREQ / REFCOUNT / HELP (IDLETIME is not modelled: an unknown subcommand here). */
const OBJECT_SPEC: CommandSpec = { arity: -2, write: false, noscript: false, subcommands: subcommands([['encoding', 3, ''], ['freq', 3, ''], ['refcount', 3, ''], ['help', 2, '']]) };

/** The command files' commands (hash-, set-, list-, zset-, scan-, key-commands.ts). */
const COMMAND_DEFS: readonly CommandDef[] = [...HASH_COMMANDS, ...SET_COMMANDS, ...LIST_COMMANDS, ...ZSET_COMMANDS, ...SCAN_COMMANDS, ...KEY_COMMANDS, ...COMPARE_COMMANDS];

/** Arity and flags from redis 7.0.15 src/commands/*.json, for every command the model answers. */
const COMMAND_SPECS: ReadonlyMap<string, CommandSpec> = new Map([
  ['ping', spec(-1)],
  ['get', spec(2)],
  ['set', spec(-3, true)],
  ['setnx', spec(3, true)],
  ['del', spec(-2, true)],
  ['exists', spec(-2)],
  ['type', spec(2)],
  ['expire', spec(-3, true)],
  ['pexpire', spec(-3, true)],
  ['expireat', spec(-3, true)],
  ['pexpireat', spec(-3, true)],
  ['ttl', spec(2)],
  ['pttl', spec(2)],
  ['incr', spec(2, true)],
  // Node-level commands (RedisNode). EVAL/EVALSHA carry no WRITE flag in 7.0 (MAY_REPLICATE):
  // a script's writes are refused one by one inside it (script.c scriptVerifyWriteCommandAllow).
  ['publish', spec(3)],
  ['wait', spec(3, false, true)],
  ['info', spec(-1)],
  ['eval', spec(-3, false, true)],
  ['evalsha', spec(-3, false, true)],
  ['script', { arity: -2, write: false, noscript: true, subcommands: subcommands([['load', 3, 'n'], ['exists', -3, 'n'], ['flush', -2, 'n']]) }],
  ['multi', spec(1, false, true)],
  ['exec', spec(1, false, true)],
  ['discard', spec(1, false, true)],
  // A session's commands (session-commands.ts, pubsub.ts). CLIENT HELP / INFO / LIST / KILL /
  // PAUSE / REPLY / TRACKING / NO-EVICT / CACHING / GETREDIR / TRACKINGINFO / UNPAUSE are not
  // modelled: their names answer as unknown subcommands.
  ['client', { arity: -2, write: false, noscript: false, subcommands: subcommands([['id', 2, 'n'], ['setname', 3, 'n'], ['getname', 2, 'n'], ['unblock', -3, 'n']]) }],
  ['subscribe', spec(-2, false, true)],
  ['unsubscribe', spec(-1, false, true)],
  ['psubscribe', spec(-2, false, true)],
  ['punsubscribe', spec(-1, false, true)],
  ['pubsub', { arity: -2, write: false, noscript: false, subcommands: subcommands([['channels', -2, ''], ['numsub', -2, ''], ['numpat', 2, '']]) }],
  ['quit', spec(-1, false, true)],
  ['reset', spec(1, false, true)],
  ...STRING_SPECS.map(([name, arity, write]): [string, CommandSpec] => [name, spec(arity, write)]),
  ...COMMAND_DEFS.map(([name, arity, flags]): [string, CommandSpec] => [name, name === 'object' ? OBJECT_SPEC : specOf(arity, flags)]),
]);

/** Commands that change data; a replica refuses them from clients (READONLY). */
export const WRITE_COMMANDS: ReadonlySet<string> = new Set(
  [...COMMAND_SPECS].filter(([, s]) => s.write).map(([name]) => name.toUpperCase()),
);

const lowered = new Map<string, string>();

/**
 * Redis compares command names and options with strcasecmp: ASCII letters only. Short words
 * (command names, options) are remembered: every command asks for its name.
 */
export function asciiLower(s: string): string {
  const known = lowered.get(s);
  if (known !== undefined) return known;
  const lower = s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
  if (s.length <= 16 && lowered.size < 1_000) lowered.set(s, lower);
  return lower;
}

const asciiUpper = (s: string): string => s.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));

/**
 * What the model knows of a command name as a client sent it ("SET", "set", "Set"): resolved
 * once per distinct name and remembered (a run sends the same few names thousands of times),
 * so a command costs one lookup, not a lower-casing, a spec, a handler and a key-flag lookup.
 */
export interface CommandInfo {
  /** The lower-case name (strcasecmp: ASCII letters only). */
  readonly name: string;
  /** undefined: not a command of the model (an unknown command to Redis). */
  readonly spec: CommandSpec | undefined;
  /** The keyspace layer's handler (undefined for node-level commands: RedisNode runs them). */
  readonly handler: Handler | undefined;
  /** Declares keys (redis 7.0.15 src/commands/*.json key_specs); EVAL/EVALSHA count as keyed. */
  readonly keyed: boolean;
}

/** Commands of the model without keys (redis 7.0.15 src/commands/*.json: no key_specs). */
const KEYLESS_COMMANDS: ReadonlySet<string> = new Set([
  'ping', 'publish', 'wait', 'info', 'script', 'multi', 'exec', 'discard', 'echo', 'client', 'subscribe', 'unsubscribe', 'psubscribe',
  'punsubscribe', 'pubsub', 'quit', 'reset',
  ...COMMAND_DEFS.filter(([, , flags]) => flags.includes('k')).map(([name]) => name),
]);

const infoByName = new Map<string, CommandInfo>();
/** The other servers' resolutions (a versioned command resolves differently there). */
const infoByServer = new Map<ServerVersion, Map<string, CommandInfo>>();

/** Whether `server` has the command `name` (lower case): every 7.0.15 command, and its own (server-versions.ts). */
const serverAnswers = (server: ServerVersion, name: string): boolean => !VERSIONED_COMMANDS.has(name) || serverHasCommand(server, name);

/**
 * The command `nameAsSent` names (args[0] of a command) on `server`, resolved once per distinct
 * short name; a command the server does not have resolves as unknown.
 */
export function commandInfo(nameAsSent: string, server: ServerVersion = 'redis-7.0'): CommandInfo {
  let cache = infoByName;
  if (server !== 'redis-7.0') {
    cache = infoByServer.get(server) ?? new Map();
    infoByServer.set(server, cache);
  }
  const known = cache.get(nameAsSent);
  if (known !== undefined) return known;
  const name = asciiLower(nameAsSent);
  const spec = serverAnswers(server, name) ? COMMAND_SPECS.get(name) : undefined;
  const keyed = name === 'eval' || name === 'evalsha' || (spec !== undefined && !KEYLESS_COMMANDS.has(name));
  const info: CommandInfo = { name, spec, handler: spec === undefined ? undefined : HANDLERS.get(name), keyed };
  if (nameAsSent.length <= 16 && cache.size < 1_000) cache.set(nameAsSent, info);
  return info;
}

/**
 * The checks redis 7.0.15 server.c processCommand makes before running a command, in its
 * order: an unknown command, an unknown subcommand of a container, then the arity. null when
 * the command may run.
 */
function commandShapeError(args: readonly string[], name = asciiLower(args[0])): RedisErrorReply | null {
  return shapeError(args, name, COMMAND_SPECS.get(name));
}

/** commandShapeError of a command already resolved (commandInfo). */
export function checkShape(args: readonly string[], cmd: CommandInfo): RedisErrorReply | null {
  const s = cmd.spec;
  // The common case: a known command without subcommands, of the right arity.
  if (s !== undefined && s.subcommands === undefined) {
    const arity = s.arity;
    if (arity > 0 ? args.length === arity : args.length >= -arity) return null;
  }
  return shapeError(args, cmd.name, s);
}

function shapeError(args: readonly string[], name: string, s: CommandSpec | undefined): RedisErrorReply | null {
  if (s === undefined) return unknownCommand(args);
  let fullName = name;
  let arity = s.arity;
  if (s.subcommands !== undefined && args.length >= 2) {
    const sub = asciiLower(args[1]);
    const subSpec = Object.hasOwn(s.subcommands, sub) ? s.subcommands[sub] : undefined;
    if (subSpec === undefined) {
      return rejectFormat(`ERR unknown subcommand '${args[1].slice(0, 128)}'. Try ${asciiUpper(args[0])} HELP.`);
    }
    fullName = `${name}|${sub}`;
    arity = subSpec.arity;
  }
  if ((arity > 0 && args.length !== arity) || args.length < -arity) return wrongArgs(fullName);
  return null;
}

/** The spec that holds a command's flags: its subcommand's for a container (checkShape passed). */
export function effectiveSpec(args: readonly string[], cmd: CommandInfo): CommandSpec | undefined {
  const s = cmd.spec;
  if (s?.subcommands === undefined || args.length < 2) return s;
  return s.subcommands[asciiLower(args[1])] ?? s;
}

/** server.c: the name errors give a subcommand ("client|id"). */
export function fullName(args: readonly string[], cmd: CommandInfo): string {
  return cmd.spec?.subcommands !== undefined && args.length >= 2 ? `${cmd.name}|${asciiLower(args[1])}` : cmd.name;
}

/** server.c rejectCommandFormat: newlines in the message become spaces (it stays one line). */
function rejectFormat(message: string): RedisErrorReply {
  return new RedisErrorReply(message.replace(/[\r\n]/g, ' '));
}

/**
 * redis 7.0.15 server.c processCommand: "unknown command '<name>', with args beginning with: "
 * then each argument quoted and followed by a space, while the list is shorter than 128
 * characters, each cut to what is left of the 128; the name is cut at 128 characters.
 */
function unknownCommand(args: readonly string[]): RedisErrorReply {
  let quoted = '';
  for (let i = 1; i < args.length && quoted.length < 128; i++) quoted += `'${args[i].slice(0, 128 - quoted.length)}' `;
  return rejectFormat(`ERR unknown command '${args[0].slice(0, 128)}', with args beginning with: ${quoted}`);
}


const HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  // server.c pingCommand: PONG, or the one argument back.
  ['ping', (_ks, args) => (args.length > 2 ? wrongArgs('ping') : args.length === 2 ? args[1] : 'PONG')],
  ['get', (ks, args) => getString(ks, args[1])],
  ['set', set],
  ['setnx', (ks, args, tag) => setGeneric(ks, args[1], args[2], true, false, false, false, undefined, tag) === null ? 0 : 1],
  ['del', del],
  ['exists', exists],
  ['type', type],
  ['expire', (ks, args, tag) => expire(ks, args, tag, 'expire', true, false)],
  ['pexpire', (ks, args, tag) => expire(ks, args, tag, 'pexpire', false, false)],
  ['expireat', (ks, args, tag) => expire(ks, args, tag, 'expireat', true, true)],
  ['pexpireat', (ks, args, tag) => expire(ks, args, tag, 'pexpireat', false, true)],
  ['ttl', (ks, args) => ttl(ks, args[1], false)],
  ['pttl', (ks, args) => ttl(ks, args[1], true)],
  ['incr', incr],
  ['unlink', del],
  ...STRING_HANDLERS,
  ...COMMAND_DEFS.filter((d) => d[3] !== null).map(([name, , , handler]): [string, Handler] => [name, handler as Handler]),
]);

/**
 * Runs one command on the keyspace: the shape checks of processCommand first (unknown command,
 * arity), then the command. Node-level commands are not answered here (unknown to a bare keyspace).
 */
export function executeKeyspaceCommand(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  const name = asciiLower(args[0]);
  const handler = serverAnswers(ks.server, name) ? HANDLERS.get(name) : undefined;
  if (handler === undefined) return unknownCommand(args);
  const shape = commandShapeError(args, name);
  if (shape !== null) return shape;
  return handler(ks, args, tag);
}

/**
 * Runs a keyspace command whose shape was already checked (commandShapeError answered null) and
 * which is already resolved (commandInfo): the node and redis.call check every command once,
 * before anything else.
 */
export function runResolvedKeyspaceCommand(ks: Keyspace, args: readonly string[], tag: string, cmd: CommandInfo): RedisReply {
  const handler = cmd.handler;
  return handler === undefined ? unknownCommand(args) : handler(ks, args, tag);
}

/**
 * Whether a command's string reply is a status reply (RESP2 "+OK"), which a script's
 * redis.call sees as { ok = ... } rather than a string (redis 7.0.15: addReply(c, shared.ok),
 * addReplyStatus): SET without GET, SETEX / PSETEX, MSET, HMSET, LSET, LTRIM, SELECT, TYPE,
 * PING without an argument, SCRIPT FLUSH, RESET, QUIT.
 */
export function isStatusReply(args: readonly string[], reply: RedisReply): boolean {
  if (typeof reply !== 'string') return false;
  const name = asciiLower(args[0]);
  if (name === 'set') return !args.slice(3).some((a) => asciiLower(a) === 'get');
  if (name === 'ping') return args.length === 1;
  if (name === 'script') return asciiLower(args[1] ?? '') === 'flush';
  return STATUS_COMMANDS.has(name);
}

const STATUS_COMMANDS: ReadonlySet<string> = new Set(['type', 'mset', 'hmset', 'setex', 'psetex', 'lset', 'ltrim', 'select', 'reset', 'quit']);

/** t_string.c getGenericCommand: nil, the string, or WRONGTYPE for another type. */
function getString(ks: Keyspace, key: string): RedisReply {
  const e = ks.lookup(key);
  if (e === undefined) return null;
  return typeof e.value === 'string' ? e.value : ERR_WRONGTYPE;
}

/** A canonical integer of at most 12 digits (string2ll's syntax), exact as a double with room to spare. */
const SMALL_INT = /^(0|-?[1-9][0-9]{0,11})$/;

/**
 * redis 7.0.15 t_string.c parseExtendedStringArgumentsOrReply: options in any ASCII case; NX
 * and XX exclude each other, KEEPTTL and the four expiry options exclude each other, but one
 * option may repeat (SET k v PX 10 PX 20 keeps 20: measured on redis-server 7.0.15, PTTL 17
 * right after); an expiry option with no argument after it, or any other word, is a syntax
 * error. The expiry number is read only after every option parsed (setGenericCommand), so a
 * syntax error wins over a bad number. A server with compare options (server-versions.ts) takes
 * one of them with its argument, exclusive of NX, XX and each other (valkey 9.0
 * tests/unit/type/string.tcl "SET with IFEQ conditional - with nx": syntax error; redis.io SET
 * 8.4: "NX | XX | IFEQ | IFNE | IFDEQ | IFDNE"), its digest checked as it is read.
 */
function set(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  let nx = false;
  let xx = false;
  let get = false;
  let keepTtl = false;
  let expiry: 'ex' | 'px' | 'exat' | 'pxat' | null = null;
  let expireArg = '';
  let cond: SetCondition | null = null;
  let condArg = '';
  for (let j = 3; j < args.length; j++) {
    const opt = asciiLower(args[j]);
    const hasNext = j < args.length - 1;
    const asCond = ks.server === 'redis-7.0' ? null : setConditionOf(ks.server, opt);
    if (opt === 'nx' && !xx && cond === null) nx = true;
    else if (opt === 'xx' && !nx && cond === null) xx = true;
    else if (asCond !== null && cond === null && !nx && !xx && hasNext) {
      cond = asCond;
      condArg = args[++j];
      const argError = conditionArgError(cond, condArg);
      if (argError !== null) return argError;
    } else if (opt === 'get') get = true;
    else if (opt === 'keepttl' && expiry === null) keepTtl = true;
    else if ((opt === 'ex' || opt === 'px' || opt === 'exat' || opt === 'pxat') && !keepTtl && (expiry === null || expiry === opt) && hasNext) {
      expiry = opt;
      expireArg = args[++j];
    } else return ERR_SYNTAX;
  }
  let expireAtMs: number | undefined;
  if (expiry !== null) {
    const at = expireDeadline(ks, expireArg, expiry);
    if (at instanceof RedisErrorReply) return at;
    expireAtMs = at;
  }
  if (cond !== null) return setIf(ks, args, cond, condArg, get, keepTtl, expireAtMs, tag);
  return setGeneric(ks, args[1], args[2], nx, xx, get, keepTtl, expireAtMs, tag);
}

/**
 * SET with a compare condition (valkey 9.0 t_string.c setGenericCommand, redis.io SET 8.4):
 * another type is WRONGTYPE (with GET too, as getGenericCommand answers it first) and nothing
 * is written; the condition decides (compare-commands.ts conditionHolds); the reply is NX's:
 * the old value with GET, else OK or nil.
 */
function setIf(ks: Keyspace, args: readonly string[], cond: SetCondition, condArg: string, get: boolean, keepTtl: boolean, expireAtMs: number | undefined, tag: string): RedisReply {
  const old = getString(ks, args[1]);
  if (old instanceof RedisErrorReply) return old;
  if (!conditionHolds(cond, condArg, (old as string | null) ?? undefined)) return get ? old : null;
  return setGeneric(ks, args[1], args[2], false, false, get, keepTtl, expireAtMs, tag);
}

/**
 * t_string.c getExpireMillisecondsOrReply: the number must be a 64-bit integer (else "value is
 * not an integer"), positive, and stay within 64 bits once made milliseconds and absolute
 * (else "invalid expire time in 'set' command").
 */
function expireDeadline(ks: Keyspace, arg: string, unit: 'ex' | 'px' | 'exat' | 'pxat'): number | RedisErrorReply {
  const seconds = unit === 'ex' || unit === 'exat';
  // Fast path, same rules: below 10^12 every sum stays an exact double (10^15 + now < 2^53).
  if (SMALL_INT.test(arg)) {
    const small = Number(arg);
    if (small <= 0) return invalidExpire('set');
    const ms = seconds ? small * 1000 : small;
    return unit === 'ex' || unit === 'px' ? ms + ks.nowMs() : ms;
  }
  const n = parseInt64(arg);
  if (n === null) return ERR_NOT_INTEGER;
  if (n <= 0n || (seconds && n > INT64_MAX / 1000n)) return invalidExpire('set');
  let ms = seconds ? n * 1000n : n;
  if (unit === 'ex' || unit === 'px') ms += BigInt(ks.nowMs());
  if (ms > INT64_MAX) return invalidExpire('set');
  return Number(ms);
}

/**
 * t_string.c setGenericCommand: with GET the old value is read first (WRONGTYPE on a hash, and
 * then nothing is written); NX/XX decide; the write replaces value and TTL (KEEPTTL keeps the
 * old TTL; no expiry option clears it). Replies the old value with GET, else OK, or nil when
 * NX/XX refused.
 */
function setGeneric(
  ks: Keyspace,
  key: string,
  value: string,
  nx: boolean,
  xx: boolean,
  get: boolean,
  keepTtl: boolean,
  /** Absolute deadline in ms, already validated; undefined: no expiry option. */
  expireAtMsOption: number | undefined,
  tag: string,
): RedisReply {
  let old: RedisReply = null;
  if (get) {
    old = getString(ks, key);
    if (old instanceof RedisErrorReply) return old;
  }
  const existing = ks.lookup(key);
  if ((nx && existing !== undefined) || (xx && existing === undefined)) return get ? old : null;
  const expireAtMs = expireAtMsOption ?? (keepTtl && existing !== undefined ? existing.expireAtMs : null);
  ks.write(key, value, expireAtMs, tag);
  return get ? old : 'OK';
}

function del(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  let n = 0;
  for (let i = 1; i < args.length; i++) {
    if (ks.lookup(args[i]) !== undefined && ks.remove(args[i], 'delete', tag)) n++;
  }
  return n;
}

/** db.c existsCommand: a key named twice counts twice. */
function exists(ks: Keyspace, args: readonly string[]): RedisReply {
  let n = 0;
  for (let i = 1; i < args.length; i++) if (ks.lookup(args[i]) !== undefined) n++;
  return n;
}

/** db.c typeCommand: none, string, hash, list, set or zset (streams are not modelled). */
function type(ks: Keyspace, args: readonly string[]): RedisReply {
  return typeName(ks.lookup(args[1])?.value);
}

/**
 * redis 7.0.15 expire.c expireGenericCommand and parseExtendedExpireArgumentsOrReply: options
 * NX/XX/GT/LT first ("Unsupported option <word>", then the incompatible pairs), then the
 * number, then the 64-bit overflow of unit and base ("invalid expire time in '<cmd>' command"),
 * then the key (0 when missing). GT treats no TTL as infinite (always refused); LT as
 * infinite too (always accepted). A deadline already reached deletes the key and answers 1.
 */
function expire(ks: Keyspace, args: readonly string[], tag: string, name: string, seconds: boolean, absolute: boolean): RedisReply {
  let nx = false;
  let xx = false;
  let gt = false;
  let lt = false;
  for (let j = 3; j < args.length; j++) {
    const opt = asciiLower(args[j]);
    if (opt === 'nx') nx = true;
    else if (opt === 'xx') xx = true;
    else if (opt === 'gt') gt = true;
    else if (opt === 'lt') lt = true;
    else return new RedisErrorReply(`ERR Unsupported option ${args[j]}`);
  }
  if (nx && (xx || gt || lt)) return new RedisErrorReply('ERR NX and XX, GT or LT options at the same time are not compatible');
  if (gt && lt) return new RedisErrorReply('ERR GT and LT options at the same time are not compatible');
  // A number or a bigint: JS compares the two exactly. Small arguments stay exact doubles
  // (SMALL_INT); the rest is computed in 64 bits with the overflow checks.
  let when: number | bigint;
  if (SMALL_INT.test(args[2])) {
    when = (seconds ? Number(args[2]) * 1000 : Number(args[2])) + (absolute ? 0 : ks.nowMs());
  } else {
    const n = parseInt64(args[2]);
    if (n === null) return ERR_NOT_INTEGER;
    let big = n;
    if (seconds) {
      if (big > INT64_MAX / 1000n || big < INT64_MIN / 1000n) return invalidExpire(name);
      big *= 1000n;
    }
    const base = absolute ? 0n : BigInt(ks.nowMs());
    if (big > INT64_MAX - base) return invalidExpire(name);
    when = big + base;
  }
  const key = args[1];
  const e = ks.lookup(key);
  if (e === undefined) return 0;
  const current = e.expireAtMs;
  if (nx && current !== null) return 0;
  if (xx && current === null) return 0;
  if (gt && (current === null || when <= current)) return 0;
  if (lt && current !== null && when >= current) return 0;
  // expire.c checkAlreadyExpired: when <= now on a primary deletes at once; a replica keeps
  // the key with its past deadline and waits for the primary's DEL.
  if (when <= ks.nowMs() && ks.deletesExpiredKeys) {
    ks.remove(key, 'delete', tag);
    return 1;
  }
  // Deadlines beyond 2^53 ms (year 287396) are kept as the nearest double.
  ks.setExpire(key, Number(when), tag);
  return 1;
}

/** expire.c ttlGenericCommand: -2 missing, -1 no TTL, else ms left (TTL: seconds, rounded half up). */
function ttl(ks: Keyspace, key: string, ms: boolean): RedisReply {
  const e = ks.lookup(key);
  if (e === undefined) return -2;
  if (e.expireAtMs === null) return -1;
  const left = Math.max(0, e.expireAtMs - ks.nowMs());
  return ms ? left : Math.floor((left + 500) / 1000);
}

/**
 * t_string.c incrDecrCommand: WRONGTYPE on a hash, "value is not an integer" for a value that
 * is not a canonical 64-bit integer ("-0", "007"), "increment or decrement would overflow"
 * past 2^63-1. The key keeps its TTL (dbOverwrite).
 */
function incr(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  const e = ks.lookup(args[1]);
  if (e !== undefined && typeof e.value !== 'string') return ERR_WRONGTYPE;
  // Fast path, same rules: a value of at most 12 digits (SMALL_INT) cannot overflow, and a
  // safe integer prints as its bigint does.
  const text = e === undefined ? '0' : (e.value as string);
  if (SMALL_INT.test(text)) {
    const small = Number(text) + 1;
    if (e === undefined) ks.write(args[1], String(small), null, tag);
    else {
      e.value = String(small);
      ks.touched(args[1], tag);
    }
    return small;
  }
  const current = parseInt64(text);
  if (current === null) return ERR_NOT_INTEGER;
  if (current === INT64_MAX) return ERR_OVERFLOW;
  const next = current + 1n;
  if (e === undefined) ks.write(args[1], String(next), null, tag);
  else {
    e.value = String(next);
    ks.touched(args[1], tag);
  }
  return integerReply(next);
}
