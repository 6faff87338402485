/**
 * How Redisson gets a lock command to Redis, per version (versions.ts):
 * - RedisExecutor: a command with no reply within `timeout` is re-sent, up to retryAttempts
 *   times, at once (before 3.15.2) or after the retry delay; only then it fails
 *   (RedisResponseTimeoutException). A re-sent command may run twice: the first copy was
 *   slow, not lost.
 * - syncedEval (3.12.5+, command/CommandAsyncService.java): with replicas, the script goes in
 *   a batch with WAIT <replica count> 1000, the count taken from the client's own view,
 *   from INFO, or from a cache per master entry; the WAIT result is ignored or checked.
 * - ServiceManager.execute (3.21.0+): the whole operation runs again after a "no replica
 *   synced" error it recognises.
 */
import { clientStateEffect, random, REPLICAS_EFFECT, sleep, type EffectProgram, type RedisOutcome, type RedisSetup } from '../../../world/effects.js';
import { isErrorReply, type RedisReply } from '../../../world/redis/reply.js';
import { NO_SYNC, type DelayStrategy, type RedissonBehaviour } from './versions.js';

/** Config.slavesSyncTimeout: 1000 ms (fixed at 1 s before 3.22.0). */
const SLAVES_SYNC_TIMEOUT_MS = 1_000;

/** One Redisson client's settings as a lock call sees them. */
export interface RedissonConfig {
  b: RedissonBehaviour;
  /** retryAttempts in effect (command-retries, or the version's). */
  retryAttempts: number;
  /** retryInterval / retryDelay in effect. */
  retryDelay: DelayStrategy;
  /** checkLockSyncedSlaves (sync-replicas). */
  checkSyncedSlaves: boolean;
  /** What the watchdog does after a failed renewal (watchdog-on-error). */
  watchdogOnError: 'stop' | 'continue';
  setup: RedisSetup;
  /** This client's WAIT state (syncState()). */
  sync: SyncState;
}

/** What the caller of a command sees. */
export type Outcome =
  /** A reply, an error reply included. */
  | { kind: 'reply'; reply: RedisReply }
  /** No reply after every send (RedisResponseTimeoutException). */
  | { kind: 'timeout'; sends: number }
  /** The script ran (its reply is here) but WAIT's count failed the check: an exception. */
  | { kind: 'no-sync'; message: string; reply: RedisReply };

/** The delay before re-send number `attempt` + 1 (DelayStrategy.calcDelay(attempt)), in ms. */
export function* retryDelayMs(config: RedissonConfig, attempt: number): EffectProgram<number> {
  const d = config.retryDelay;
  if (d.kind === 'constant') return d.ms;
  // config/EqualJitterDelay.java calcDelay @ redisson-3.48.0: half of the capped exponential
  // backoff plus ThreadLocalRandom.nextLong(0, half + 1); drawn from a stream of its own.
  const exponentialMs = attempt >= 31 ? d.maxMs : Math.min(d.baseMs * 2 ** attempt, d.maxMs);
  const halfMs = Math.floor(exponentialMs / 2);
  if (halfMs === 0) return 0;
  return halfMs + Math.floor((yield* random('redisson-retry-delay')) * (halfMs + 1));
}

/**
 * RedisExecutor: sends `commands` (one, or a pipelined batch) and re-sends what has no reply
 * yet after each response timeout; a batch's WAIT is always sent again
 * (command/RedisCommonBatchExecutor.java sendCommand). Late replies of an earlier send are
 * dropped. Returns every reply, or the number of sends that all went unanswered.
 */
export function* send(
  config: RedissonConfig,
  commands: string[][],
  options: { retry: boolean; timeoutUs: number },
): EffectProgram<{ replies: RedisReply[] } | { timeout: number }> {
  if (commands.length === 1) {
    const r = yield* plain(config, commands[0], options.retry, options.timeoutUs);
    return r.kind === 'reply' ? { replies: [r.reply] } : { timeout: r.sends };
  }
  const first = (yield { kind: 'redis-pipeline', commands, timeoutUs: options.timeoutUs }) as RedisOutcome[];
  return yield* afterFirstBatch(config, commands, first, options.retry, options.timeoutUs);
}

/** Whether every command of a batch got its reply. */
function allReplied(outcomes: readonly RedisOutcome[]): boolean {
  for (let i = 0; i < outcomes.length; i++) if (outcomes[i].status !== 'ok') return false;
  return true;
}

/**
 * The batch loop of `send` from the outcomes of its first send on: what has no reply yet
 * (and the WAIT) is re-sent after each response timeout while re-sends are left.
 */
function* afterFirstBatch(
  config: RedissonConfig,
  commands: string[][],
  first: RedisOutcome[],
  retry: boolean,
  timeoutUs: number,
): EffectProgram<{ replies: RedisReply[] } | { timeout: number }> {
  // Loops rather than map/forEach/every/flatMap: no closure per batch.
  const replies: Array<RedisReply | undefined> = [];
  for (let i = 0; i < commands.length; i++) replies.push(undefined);
  let outcomes = first;
  // Which command each outcome answers; null while a send was the whole batch.
  let indices: number[] | null = null;
  for (let attempt = 0; ; attempt++) {
    for (let j = 0; j < outcomes.length; j++) {
      const r = outcomes[j];
      if (r.status === 'ok') replies[indices === null ? j : indices[j]] = r.reply;
    }
    let missing = false;
    for (let i = 0; i < replies.length; i++) if (replies[i] === undefined) missing = true;
    if (!missing) return { replies: replies as RedisReply[] };
    const next: number[] = [];
    for (let i = 0; i < commands.length; i++) if (replies[i] === undefined || commands[i][0] === 'WAIT') next.push(i);
    indices = next;
    if (!(yield* resend(config, retry, attempt))) return { timeout: attempt + 1 };
    outcomes = (yield { kind: 'redis-pipeline', commands: next.map((i) => commands[i]), timeoutUs }) as RedisOutcome[];
  }
}

/**
 * A single command through RedisExecutor (the loop of `send`, for one command). Effects are
 * yielded as plain objects here, without the helpers: one generator frame less per command.
 */
export function* plain(
  config: RedissonConfig,
  command: string[],
  retry: boolean,
  timeoutUs = config.setup.commandTimeoutUs,
): EffectProgram<Exclude<Outcome, { kind: 'no-sync' }>> {
  for (let attempt = 0; ; attempt++) {
    const r = (yield { kind: 'redis', target: 'primary', command, timeoutUs }) as RedisOutcome;
    if (r.status === 'ok') return { kind: 'reply', reply: r.reply };
    if (!(yield* resend(config, retry, attempt))) return { kind: 'timeout', sends: attempt + 1 };
  }
}

/**
 * After send number `attempt` + 1 left a reply missing: false when no re-send is left, else true
 * once the retry delay has passed. Before 3.15.2 the re-send went out at the response timeout
 * itself (redisson#3494).
 */
function* resend(config: RedissonConfig, retry: boolean, attempt: number): EffectProgram<boolean> {
  if (!retry || attempt >= config.retryAttempts) return false;
  if (config.b.waitBeforeResend) yield { kind: 'sleep', us: (yield* retryDelayMs(config, attempt)) * 1000 };
  return true;
}

/** Per client: the WAIT probe's verdict (3.26.1+) and the cached replica count (3.27.0+). */
export class SyncState {
  /** null: not probed yet. */
  waitSupported: boolean | null = null;
  /** MasterSlaveEntry.availableSlaves: -1 until INFO has been read. */
  cachedReplicas = -1;
}

const newSyncState = (): SyncState => new SyncState();
const SYNC_STATE = clientStateEffect('redisson/sync', newSyncState);
export function* syncState(): EffectProgram<SyncState> {
  return (yield SYNC_STATE) as SyncState;
}

/** `connected_slaves` from an INFO reply (0 when absent, as `getOrDefault("connected_slaves", "0")`). */
function connectedSlaves(reply: RedisReply): number {
  const m = typeof reply === 'string' ? /(?:^|\r\n)connected_slaves:(\d+)/.exec(reply) : null;
  return m ? Number(m[1]) : 0;
}

/** The replica count WAIT waits for, or an outcome that ends the call. */
function* replicasToWaitFor(config: RedissonConfig, state: SyncState): EffectProgram<number | Outcome> {
  const { b } = config;
  const info = function* (): EffectProgram<number | Outcome> {
    const r = yield* plain(config, ['INFO', b.infoSection], true);
    if (r.kind !== 'reply') return r;
    return isErrorReply(r.reply) ? r : connectedSlaves(r.reply);
  };
  switch (b.replicaCount) {
    case 'none':
      return 0;
    case 'client-view':
      // MasterSlaveEntry.getAvailableSlaves: the replicas the client is connected to. The model
      // takes the primary's connected replicas for it (the client's own view is not modelled).
      return (yield REPLICAS_EFFECT) as number;
    case 'info-if-client-sees-replicas':
      return ((yield REPLICAS_EFFECT) as number) > 0 ? yield* info() : 0;
    case 'info':
      return yield* info();
    case 'info-cached': {
      if (state.cachedReplicas !== -1) return state.cachedReplicas;
      const n = yield* info();
      if (typeof n === 'number') state.cachedReplicas = n;
      return n;
    }
  }
}

/**
 * The WAIT support probe (3.26.1+). Returns whether this call goes on with WAIT, or an
 * outcome that ends it (a timeout or another error).
 */
function* probeWait(config: RedissonConfig, state: SyncState): EffectProgram<boolean | Outcome> {
  const { b } = config;
  if (b.waitProbe === 'none') return true;
  if (state.waitSupported !== null) return state.waitSupported;
  const probe = b.waitProbe === 'wait' ? [['WAIT', '0', '0']] : [['WAIT', '0', '0'], ['WAITAOF', '0', '0', '0']];
  const r = yield* send(config, probe, { retry: true, timeoutUs: config.setup.commandTimeoutUs });
  if ('timeout' in r) return { kind: 'timeout', sends: r.timeout };
  const errors = r.replies.filter(isErrorReply);
  if (errors.length === 0) {
    state.waitSupported = true;
    return true;
  }
  if (!errors[0].message.startsWith('ERR unknown command')) return { kind: 'reply', reply: errors[0] };
  state.waitSupported = !isErrorReply(r.replies[0]);
  // 3.46.0-3.51.x: the call that met an unknown WAITAOF went out without sync.
  return state.waitSupported && !b.probeFailureSkipsSync;
}

/**
 * syncedEval: a lock script, followed by WAIT when Redis has replicas. `retry` is whether a
 * single server re-sends it (the batch path always does).
 */
export function* syncedEval(config: RedissonConfig, script: string[], retry: boolean): EffectProgram<Outcome> {
  const { b, setup } = config;
  // A single server (isSingleConfig) never waits for replicas.
  if (!setup.replicated || b.replicaCount === 'none') return yield* plain(config, script, retry);
  const state = config.sync;
  // The probe's verdict and the replica count are known without a command on most calls:
  // read in place then, without probeWait's and replicasToWaitFor's generators.
  const probe = b.waitProbe === 'none' ? true : state.waitSupported !== null ? state.waitSupported : yield* probeWait(config, state);
  if (probe !== true) return probe === false ? yield* plain(config, script, true) : probe;
  const n =
    b.replicaCount === 'client-view'
      ? ((yield REPLICAS_EFFECT) as number)
      : b.replicaCount === 'info-cached' && state.cachedReplicas !== -1
        ? state.cachedReplicas
        : yield* replicasToWaitFor(config, state);
  if (typeof n !== 'number') return n;
  const commands = n > 0 ? [script, ['WAIT', String(n), String(SLAVES_SYNC_TIMEOUT_MS)]] : [script];
  const timeoutUs = setup.commandTimeoutUs + (n > 0 && b.batchTimeoutAddsWait ? SLAVES_SYNC_TIMEOUT_MS * 1000 : 0);
  // send() written out for the commonest case, a batch whose every reply came at the first
  // send: no generator, options or reply array for it; the same effects in the same order.
  let reply: RedisReply;
  let waited: RedisReply | undefined;
  if (commands.length === 1) {
    const one = yield* plain(config, script, true, timeoutUs);
    if (one.kind === 'timeout') return one;
    reply = one.reply;
  } else {
    const first = (yield { kind: 'redis-pipeline', commands, timeoutUs }) as RedisOutcome[];
    if (allReplied(first)) {
      reply = (first[0] as { reply: RedisReply }).reply;
      waited = (first[1] as { reply: RedisReply }).reply;
    } else {
      const r = yield* afterFirstBatch(config, commands, first, true, timeoutUs);
      if ('timeout' in r) return { kind: 'timeout', sends: r.timeout };
      reply = r.replies[0];
      waited = r.replies[1];
    }
  }
  if (isErrorReply(reply)) return { kind: 'reply', reply };
  if (n === 0) return { kind: 'reply', reply };
  if (isErrorReply(waited)) return { kind: 'reply', reply: waited };
  const synced = typeof waited === 'number' ? waited : 0;
  if (b.replicaCount === 'info-cached' && (synced < n || (b.cacheResetWhenMore && synced > n))) state.cachedReplicas = -1;
  const fewer = `Only ${synced} of ${n} slaves were synced`;
  switch (b.syncCheck) {
    case 'ignore':
      return { kind: 'reply', reply };
    case 'exact':
      return synced !== n ? { kind: 'no-sync', message: fewer, reply } : { kind: 'reply', reply };
    case 'strict':
      return config.checkSyncedSlaves && synced < n ? { kind: 'no-sync', message: fewer, reply } : { kind: 'reply', reply };
    case 'zero':
      return config.checkSyncedSlaves && synced === 0 ? { kind: 'no-sync', message: b.noSyncMessage, reply } : { kind: 'reply', reply };
  }
}

/** Whether handleNoSync and ServiceManager.execute recognise this outcome as "no replica synced". */
export const recognisedNoSync = (config: RedissonConfig, r: Outcome): boolean =>
  r.kind === 'no-sync' && (config.b.noSyncMatchedByClass || r.message === NO_SYNC);

/**
 * ServiceManager.execute: whether run number `run` (from 0) of an operation that ended with
 * `r` is run again: after a recognised no-sync error, up to retryAttempts times. The callers
 * loop themselves (one generator frame less under every command of a lock call).
 */
export const rerunsAfter = (config: RedissonConfig, r: Outcome, run: number): boolean =>
  recognisedNoSync(config, r) && run < config.retryAttempts;

/**
 * The pause before re-run number `run` + 1: retryInterval (3.21.0-3.47.x) or
 * retryDelay.calcDelay(run + 1) (3.48.0+).
 */
export function* rerunDelay(config: RedissonConfig, run: number): EffectProgram<void> {
  yield* sleep((yield* retryDelayMs(config, run + 1)) * 1000);
}
