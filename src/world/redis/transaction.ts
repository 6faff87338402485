/**
 * MULTI ... EXEC as redis 7.0.15 runs it (multi.c, server.c processCommand): each command
 * after MULTI is checked when it arrives; one refused then (unknown command, wrong arity,
 * READONLY, NOREPLICAS) is answered with its error and marks the transaction, and EXEC then
 * answers "EXECABORT Transaction discarded because of previous errors." and runs nothing. A
 * nested MULTI is answered "ERR MULTI calls can not be nested" without marking it. Otherwise
 * every queued command answers QUEUED and EXEC runs them all, back to back, answering an array
 * with each command's reply; an error at run time (WRONGTYPE, a bad expire time) is that
 * command's element and the others still run (no rollback). Measured on redis-server 7.0.15:
 * MULTI / SET a 1 px 0 / SET a 2 px 5000 / PTTL a / EXEC answers
 * ["ERR invalid expire time in 'set' command", "OK", 5000].
 *
 * The model receives a transaction whole (MULTI, the commands and EXEC arrive together, as
 * ioredis's multi().exec() writes them in one go), so no other client's command can land
 * between the queueing and the EXEC. WATCH is not modelled.
 */
import { asciiLower } from './commands.js';
import { RedisErrorReply, type RedisReply } from './reply.js';

export interface TransactionReplies {
  /** MULTI's reply. */
  multi: RedisReply;
  /** One reply per command: QUEUED or the error that refused it. */
  queued: RedisReply[];
  /** EXEC's reply: the array of results, or EXECABORT. */
  exec: RedisReply;
}

const ERR_EXECABORT = new RedisErrorReply('EXECABORT Transaction discarded because of previous errors.');
const ERR_NESTED_MULTI = new RedisErrorReply('ERR MULTI calls can not be nested');

/**
 * Runs a transaction: `admit` gives processCommand's refusal of a command (or null), `run`
 * executes an admitted one.
 */
export function runTransaction(
  commands: readonly (readonly string[])[],
  admit: (args: readonly string[]) => RedisErrorReply | null,
  run: (args: readonly string[]) => RedisReply,
): TransactionReplies {
  let dirty = false;
  const toRun: (readonly string[])[] = [];
  const queued = commands.map((args): RedisReply => {
    const name = asciiLower(args[0] ?? '');
    if (name === 'exec' || name === 'discard') throw new Error(`runTransaction: ${args[0]} inside the command list (the transaction ends with EXEC by itself)`);
    const refused = admit(args);
    if (refused !== null) {
      dirty = true;
      return refused;
    }
    if (name === 'multi') return ERR_NESTED_MULTI;
    toRun.push(args);
    return 'QUEUED';
  });
  return { multi: 'OK', queued, exec: dirty ? ERR_EXECABORT : toRun.map(run) };
}
