/**
 * Key and server commands beyond the common ones: OBJECT ENCODING / REFCOUNT / FREQ / HELP,
 * DBSIZE, TOUCH, TIME, SELECT, MSET, MSETNX, as redis 7.0.15 answers them (src/object.c
 * objectCommand, tryObjectEncoding; db.c dbsizeCommand, touchCommand, selectCommand; server.c
 * timeCommand; t_string.c msetGenericCommand).
 *
 * A string's encoding follows from its text, since every string the model stores was written
 * whole by a command that runs tryObjectEncoding (SET and its kin, INCR's results): "int" for
 * a canonical 64-bit integer of at most 20 characters, "embstr" up to 44 bytes, "raw" beyond;
 * an integer in 0..9999 is a shared object (refcount 2147483647, OBJ_SHARED_REFCOUNT).
 * OBJECT IDLETIME (the LRU clock) is not modelled.
 */
import type { StoredValue } from './keyspace.js';
import { ERR_NOT_INTEGER, parseInt64, RedisErrorReply, wrongArgs } from './reply.js';
import type { CommandDef, Handler } from './command-def.js';
import { HASHTABLE_HASHES, isInt64Text, longerThanBytes, RedisList, RedisSet } from './collection-values.js';

/** object.c strEncoding of a value as the model keeps it (collection-values.ts). */
function encodingOf(v: StoredValue): string {
  if (typeof v === 'string') return v.length <= 20 && isInt64Text(v) ? 'int' : longerThanBytes(v, 44) ? 'raw' : 'embstr';
  if (v instanceof Map) return HASHTABLE_HASHES.has(v) ? 'hashtable' : 'listpack';
  if (v instanceof RedisList) return 'quicklist';
  if (v instanceof RedisSet) return v.intset ? 'intset' : 'hashtable';
  return v.listpack ? 'listpack' : 'skiplist';
}

const OBJECT_HELP = [
  'OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'ENCODING <key>',
  '    Return the kind of internal representation used in order to store the value',
  '    associated with a <key>.',
  'FREQ <key>',
  '    Return the access frequency index of the <key>. The returned integer is',
  '    proportional to the logarithm of the recent access frequency of the key.',
  'IDLETIME <key>',
  '    Return the idle time of the <key>, that is the approximated number of',
  '    seconds elapsed since the last access to the key.',
  'REFCOUNT <key>',
  '    Return the number of references of the value associated with the specified',
  '    <key>.',
  'HELP',
  '    Prints this help.',
];

/** object.c objectCommand (maxmemory-policy noeviction: no LFU, shared integers in use). */
const object: Handler = (ks, args) => {
  const sub = args[1].toLowerCase();
  if (sub === 'help') return OBJECT_HELP.map((line, i) => (i === 0 ? `${args[0].toUpperCase()}${line.slice(6)}` : line));
  const e = ks.lookup(args[2]);
  if (e === undefined) return null;
  if (sub === 'encoding') return encodingOf(e.value);
  if (sub === 'freq') {
    return new RedisErrorReply('ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.');
  }
  const v = e.value;
  if (typeof v === 'string' && v.length <= 4 && isInt64Text(v) && !v.startsWith('-')) return 2147483647;
  return 1;
};

/** db.c touchCommand: the keys that exist, a key named twice counted twice. */
const touch: Handler = (ks, args) => {
  let n = 0;
  for (let i = 1; i < args.length; i++) if (ks.lookup(args[i]) !== undefined) n++;
  return n;
};

/** server.c timeCommand: [unix seconds, microseconds] of the node's clock. */
const time: Handler = (ks) => {
  const us = Math.floor(ks.nowUs());
  return [String(Math.floor(us / 1_000_000)), String(us % 1_000_000)];
};

/**
 * db.c selectCommand: an integer ("value is not an integer or out of range") of 32 bits, then the
 * index within databases 16 ("DB index is out of range"). The model holds database 0 only: a
 * valid other index is refused with a lock-sim error rather than pretending it is another database.
 */
const select: Handler = (_ks, args) => {
  const n = parseInt64(args[1]);
  if (n === null) return ERR_NOT_INTEGER;
  // object.c getIntFromObjectOrReply -> getRangeLongFromObjectOrReply without a message.
  if (n > 2147483647n || n < -2147483648n) return new RedisErrorReply('ERR value is out of range, value must between -2147483648 and 2147483647');
  if (n < 0n || n >= 16n) return new RedisErrorReply('ERR DB index is out of range');
  return n === 0n ? 'OK' : new RedisErrorReply('ERR lock-sim models database 0 only (SELECT 0)');
};

/** t_string.c msetGenericCommand: an even list (arity error otherwise); MSETNX writes nothing if any key exists. */
const mset = (nx: boolean): Handler => (ks, args, tag) => {
  if (args.length % 2 === 0) return wrongArgs(nx ? 'msetnx' : 'mset');
  if (nx) for (let j = 1; j < args.length; j += 2) if (ks.lookup(args[j]) !== undefined) return 0;
  for (let j = 1; j < args.length; j += 2) ks.write(args[j], args[j + 1], null, tag);
  return nx ? 1 : 'OK';
};

/** Arity and flags from redis 7.0.15 src/commands/<name>.json (OBJECT's subcommands in commands.ts). */
export const KEY_COMMANDS: readonly CommandDef[] = [
  ['object', -2, '', object],
  ['dbsize', 1, 'k', (ks) => ks.size],
  ['touch', -2, '', touch],
  ['time', 1, 'k', time],
  ['select', 2, 'k', select],
  ['mset', -3, 'w', mset(false)],
  ['msetnx', -3, 'w', mset(true)],
];
