/**
 * What each server version (`redis.server`, spec/redis.ts) adds to the redis 7.0.15 model:
 * the compare-and-delete commands and SET's compare options. Everything else answers as
 * 7.0.15 does on every version (error texts included): the model follows 7.0.15 and
 * test/conformance measures it there; what the newer versions change elsewhere (Redis 7.4's
 * hash-field expiry, Valkey's other additions) is not modelled.
 *
 * - redis-7.0, redis-7.4: neither (DELEX, DIGEST, DELIFEQ are unknown commands; IFEQ is a
 *   syntax error in SET: redis 7.4.0 src/t_string.c parseExtendedStringArgumentsOrReply knows
 *   NX XX GET EX PX EXAT PXAT KEEPTTL, as 7.0.15's does).
 * - redis-8.4: DELEX, DIGEST and SET IFEQ / IFNE / IFDEQ / IFDNE (redis/redis#14435,
 *   "Optimistic locking for string objects"; redis 8.4 src/commands/delex.json, digest.json,
 *   set.json, "since": "8.4.0"; #14502 fixed the digest to 16 hex characters and made IFDEQ /
 *   IFDNE compare it case-insensitively, #14529 checks DELEX's syntax before the key).
 * - valkey-8.1: SET IFEQ (valkey-io/valkey#1324, in 8.1.0), no compare-and-delete.
 * - valkey-9.0: SET IFEQ and DELIFEQ key value (valkey-io/valkey#1975, src/commands/delifeq.json
 *   "since": "9.0.0"); Valkey's IFNE (valkey-io/valkey#3105) and DELEX (valkey-io/valkey#4596)
 *   came after 9.0.
 */
import type { ServerVersion } from '../../spec/redis.js';

export type SetCondition = 'ifeq' | 'ifne' | 'ifdeq' | 'ifdne';

interface ServerModel {
  /** The commands beyond redis 7.0.15's that this server answers (lower case). */
  readonly commands: ReadonlySet<string>;
  /** SET's compare options this server parses. */
  readonly setConditions: ReadonlySet<string>;
}

const NONE: ServerModel = { commands: new Set(), setConditions: new Set() };

const SERVER_MODELS: Readonly<Record<ServerVersion, ServerModel>> = {
  'redis-7.0': NONE,
  'redis-7.4': NONE,
  'redis-8.4': { commands: new Set(['delex', 'digest']), setConditions: new Set(['ifeq', 'ifne', 'ifdeq', 'ifdne']) },
  'valkey-8.1': { commands: new Set(), setConditions: new Set(['ifeq']) },
  'valkey-9.0': { commands: new Set(['delifeq']), setConditions: new Set(['ifeq']) },
};

/** The commands some versions answer and others do not (commands.ts gates them). */
export const VERSIONED_COMMANDS: ReadonlySet<string> = new Set(['delex', 'digest', 'delifeq']);

/** Whether `server` answers the versioned command `name` (lower case). */
export function serverHasCommand(server: ServerVersion, name: string): boolean {
  return SERVER_MODELS[server].commands.has(name);
}

/** Whether `server`'s SET parses the option `opt` (lower case) as a compare condition. */
export function setConditionOf(server: ServerVersion, opt: string): SetCondition | null {
  return SERVER_MODELS[server].setConditions.has(opt) ? (opt as SetCondition) : null;
}
