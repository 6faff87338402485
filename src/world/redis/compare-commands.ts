/**
 * The servers' own compare-and-delete and compare-and-set, for the versions that have them
 * (server-versions.ts says which): Redis 8.4's DELEX and DIGEST and SET's IFEQ / IFNE / IFDEQ /
 * IFDNE (redis/redis#14435), Valkey 8.1's SET IFEQ (valkey-io/valkey#1324) and Valkey 9.0's
 * DELIFEQ (valkey-io/valkey#1975). Modelled from the commands' JSON files and documentation
 * and the sources cited at each function; no server of these versions runs here, so unlike
 * the 7.0.15 model they are not measured (test/conformance measures that 7.0.15 refuses them).
 */
import type { Keyspace, StoredValue } from './keyspace.js';
import type { CommandDef, Handler } from './command-def.js';
import { ERR_SYNTAX, ERR_WRONGTYPE, RedisErrorReply, type RedisReply } from './reply.js';
import type { SetCondition } from './server-versions.js';
import { xxh3 } from './xxh3.js';

/**
 * redis 8.4 t_string.c validateHexDigest (redis/redis#14502: "IFDEQ/IFDNE: Validate the digest
 * must be exactly 16 characters"); the text is the PR's addReplyError.
 */
const ERR_DIGEST = new RedisErrorReply('ERR must be exactly 16 hexadecimal characters');
const HEX_DIGEST = /^[0-9a-fA-F]{16}$/;

/**
 * redis 8.4 DIGEST: the XXH3 64-bit hash of the value's bytes as 16 lower-case hex digits with
 * leading zeros (stringDigest formats it with PRIx64; redis/redis#14502 "Always return 16 hex
 * characters with leading zeros"; redis.io DIGEST: "Hello world" -> "b6acb9d84a38ff74").
 */
function digestOf(value: string): string {
  return xxh3(Buffer.from(value, 'utf8')).toString(16).padStart(16, '0');
}

/** The digest argument's error, or null when it is 16 hex characters (IFDEQ / IFDNE only). */
export function conditionArgError(cond: SetCondition, arg: string): RedisErrorReply | null {
  return (cond === 'ifdeq' || cond === 'ifdne') && !HEX_DIGEST.test(arg) ? ERR_DIGEST : null;
}

/**
 * Whether `cond arg` holds for the current string value (undefined: no key). A missing key
 * fails IFEQ / IFDEQ and passes IFNE / IFDNE (redis.io SET: "If key doesn't exist, it won't be
 * created" for IFEQ and IFDEQ, "it will be created" for IFNE and IFDNE); digests compare
 * case-insensitively (strcasecmp, redis/redis#14502).
 */
export function conditionHolds(cond: SetCondition, arg: string, current: string | undefined): boolean {
  if (current === undefined) return cond === 'ifne' || cond === 'ifdne';
  switch (cond) {
    case 'ifeq':
      return current === arg;
    case 'ifne':
      return current !== arg;
    case 'ifdeq':
      return digestOf(current) === arg.toLowerCase();
    case 'ifdne':
      return digestOf(current) !== arg.toLowerCase();
  }
}

const isString = (v: StoredValue): v is string => typeof v === 'string';

/**
 * redis 8.4 db.c delexCommand (redis.io DELEX): without a condition it deletes the key as DEL
 * does, whatever its type (1, or 0 when missing); with one, the shape is checked first (one
 * condition of the four and its argument, else a syntax error: redis/redis#14529 checks the
 * syntax before the key), then a missing key answers 0, another type WRONGTYPE ("In 8.4, keys
 * must be of type string when using one of the options"), and the key is deleted (1) when the
 * condition holds, else 0.
 */
const delex: Handler = (ks, args, tag) => {
  if (args.length === 2) return ks.lookup(args[1]) !== undefined && ks.remove(args[1], 'delete', tag) ? 1 : 0;
  const cond = args.length === 4 ? conditionNamed(args[2]) : null;
  if (cond === null) return ERR_SYNTAX;
  const argError = conditionArgError(cond, args[3]);
  if (argError !== null) return argError;
  return deleteIf(ks, args[1], tag, (value) => conditionHolds(cond, args[3], value));
};

function conditionNamed(word: string): SetCondition | null {
  const lower = word.toLowerCase();
  return lower === 'ifeq' || lower === 'ifne' || lower === 'ifdeq' || lower === 'ifdne' ? lower : null;
}

/** 0 for a missing key, WRONGTYPE for another type, else 1 and the key deleted when `holds`. */
function deleteIf(ks: Keyspace, key: string, tag: string, holds: (value: string) => boolean): RedisReply {
  const e = ks.lookup(key);
  if (e === undefined) return 0;
  if (!isString(e.value)) return ERR_WRONGTYPE;
  if (!holds(e.value)) return 0;
  ks.remove(key, 'delete', tag);
  return 1;
}

/** redis 8.4 DIGEST (digest.json, redis.io DIGEST): nil for a missing key, WRONGTYPE for another type. */
const digest: Handler = (ks, args) => {
  const e = ks.lookup(args[1]);
  if (e === undefined) return null;
  return isString(e.value) ? digestOf(e.value) : ERR_WRONGTYPE;
};

/**
 * valkey 9.0 t_string.c delifeqCommand: 0 for a missing key (lookupKeyWriteOrReply czero),
 * WRONGTYPE for another type, 1 and the key deleted when the value equals the argument, else 0.
 */
const delifeq: Handler = (ks, args, tag) => deleteIf(ks, args[1], tag, (value) => value === args[2]);

/**
 * Arity and flags from redis 8.4 src/commands/delex.json (-2, WRITE), digest.json (2, READONLY)
 * and valkey 9.0 src/commands/delifeq.json (3, WRITE). Which server answers which:
 * server-versions.ts.
 */
export const COMPARE_COMMANDS: readonly CommandDef[] = [
  ['delex', -2, 'w', delex],
  ['digest', 2, '', digest],
  ['delifeq', 3, 'w', delifeq],
];
