/**
 * Set commands: SADD, SREM, SISMEMBER, SMISMEMBER, SMEMBERS, SCARD, SMOVE, as redis 7.0.15
 * runs them (src/t_set.c saddCommand, sremCommand, sismemberCommand, smismemberCommand,
 * sinterCommand for SMEMBERS, scardCommand, smoveCommand). A set's encoding (collection-values.ts) decides
 * the order SMEMBERS answers in: an intset's members ascending; a hashtable's in Redis's dict
 * order, which depends on a hash seed drawn at server start: the model answers insertion order
 * there (test/conformance compares those replies as sets).
 */
import type { Keyspace } from './keyspace.js';
import { ERR_WRONGTYPE, RedisErrorReply, type RedisReply } from './reply.js';
import { isInt64Text, RedisSet, SET_MAX_INTSET_ENTRIES } from './collection-values.js';
import type { CommandDef, Handler } from './command-def.js';

/** The set at `key`: undefined when missing, WRONGTYPE when another type. */
function setAt(ks: Keyspace, key: string): RedisSet | undefined | RedisErrorReply {
  const e = ks.lookup(key);
  if (e === undefined) return undefined;
  return e.value instanceof RedisSet ? e.value : ERR_WRONGTYPE;
}

/** t_set.c setTypeAdd: 1 if added; an intset becomes a hashtable for a non-integer member or past 512 members. */
function addMember(set: RedisSet, member: string): boolean {
  if (set.members.has(member)) return false;
  if (set.intset && !isInt64Text(member)) set.intset = false;
  set.members.add(member);
  if (set.intset && set.members.size > SET_MAX_INTSET_ENTRIES) set.intset = false;
  return true;
}

/** Members in the order Redis answers them: an intset ascending (numerically), else insertion order. */
export function setMembers(set: RedisSet): string[] {
  const out = [...set.members];
  if (set.intset) out.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  return out;
}

const sadd: Handler = (ks, args, tag) => {
  const s = setAt(ks, args[1]);
  if (s instanceof RedisErrorReply) return s;
  // t_set.c setTypeCreate: an intset when the first member is an integer.
  const set = s ?? new RedisSet(new Set(), isInt64Text(args[2]));
  let added = 0;
  for (let i = 2; i < args.length; i++) if (addMember(set, args[i])) added++;
  if (s === undefined) ks.write(args[1], set, null, tag);
  else if (added > 0) ks.touched(args[1], tag);
  return added;
};

/** The key goes with its last member; members after that are not looked at. */
const srem: Handler = (ks, args, tag) => {
  const set = setAt(ks, args[1]);
  if (set === undefined) return 0;
  if (set instanceof RedisErrorReply) return set;
  let deleted = 0;
  for (let i = 2; i < args.length; i++) {
    if (set.members.delete(args[i])) {
      deleted++;
      if (set.members.size === 0) {
        ks.remove(args[1], 'delete', tag);
        return deleted;
      }
    }
  }
  if (deleted > 0) ks.touched(args[1], tag);
  return deleted;
};

const sismember: Handler = (ks, args) => {
  const set = setAt(ks, args[1]);
  if (set instanceof RedisErrorReply) return set;
  return set?.members.has(args[2]) ? 1 : 0;
};

const smismember: Handler = (ks, args) => {
  const set = setAt(ks, args[1]);
  if (set instanceof RedisErrorReply) return set;
  const out: RedisReply[] = [];
  for (let i = 2; i < args.length; i++) out.push(set?.members.has(args[i]) ? 1 : 0);
  return out;
};

const smembers: Handler = (ks, args) => {
  const set = setAt(ks, args[1]);
  if (set instanceof RedisErrorReply) return set;
  return set === undefined ? [] : setMembers(set);
};

const scard: Handler = (ks, args) => {
  const set = setAt(ks, args[1]);
  if (set instanceof RedisErrorReply) return set;
  return set?.members.size ?? 0;
};

/**
 * t_set.c smoveCommand: 0 when the source is missing (before any type check); WRONGTYPE when
 * the source, or an existing destination, is no set; source = destination answers membership;
 * then the member moves (the source goes when emptied, the destination is made when missing).
 */
const smove: Handler = (ks, args, tag) => {
  const src = setAt(ks, args[1]);
  const dst = setAt(ks, args[2]);
  if (src === undefined) return 0;
  if (src instanceof RedisErrorReply) return src;
  if (dst instanceof RedisErrorReply) return dst;
  const member = args[3];
  if (args[1] === args[2]) return src.members.has(member) ? 1 : 0;
  if (!src.members.delete(member)) return 0;
  if (src.members.size === 0) ks.remove(args[1], 'delete', tag);
  else ks.touched(args[1], tag);
  if (dst === undefined) {
    const set = new RedisSet(new Set(), isInt64Text(member));
    addMember(set, member);
    ks.write(args[2], set, null, tag);
  } else if (addMember(dst, member)) ks.touched(args[2], tag);
  return 1;
};

/** Arity and flags from redis 7.0.15 src/commands/<name>.json. */
export const SET_COMMANDS: readonly CommandDef[] = [
  ['sadd', -3, 'w', sadd],
  ['srem', -3, 'w', srem],
  ['sismember', 3, '', sismember],
  ['smismember', -3, '', smismember],
  ['smembers', 2, '', smembers],
  ['scard', 2, '', scard],
  ['smove', 4, 'w', smove],
];
