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
import { clientStateEffect, pipeline, random, REDIS_SETUP_EFFECT, REPLICAS_EFFECT, sleep, timedCommand, type Effect, type EffectProgram, type RedisOutcome, type RedisSetup } from '../../../world/effects.js';
import { isErrorReply, type RedisReply } from '../../../world/redis/reply.js';
import type { LockParams } from '../../lock-protocol.js';
import { NO_SYNC, type DelayStrategy, type RedissonBehaviour } from './versions.js';

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
  /** Config.lockWatchdogTimeout in effect (lock-watchdog-timeout): the watchdog's lease. */
  lockWatchdogTimeoutMs: number;
  /**
   * Config.slavesSyncTimeout in effect (slaves-sync-timeout): WAIT's timeout, and what a batch
   * with WAIT gets on top of `timeout` (3.14.1+).
   */
  slavesSyncTimeoutMs: number;
  /** The WAIT command of each replica count, made once per client (commands are only read). */
  waitCommands: string[][];
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
  return halfMs + Math.floor(((yield random('redisson-retry-delay')) as number) * (halfMs + 1));
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
  const first = (yield pipeline(commands, options.timeoutUs)) as RedisOutcome[];
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
    outcomes = (yield pipeline(next.map((i) => commands[i]), timeoutUs)) as RedisOutcome[];
  }
}

/**
 * A single command through RedisExecutor (the loop of `send`, for one command).
 */
function* plain(
  config: RedissonConfig,
  command: string[],
  retry: boolean,
  timeoutUs = config.setup.commandTimeoutUs,
): EffectProgram<Exclude<Outcome, { kind: 'no-sync' }>> {
  const r = (yield timedCommand(command, timeoutUs)) as RedisOutcome;
  if (r.status === 'ok') return replyOf(r.reply);
  return yield* plainResent(config, command, retry, timeoutUs);
}

/** The loop of `plain` once its first send went unanswered: the re-sends, while any are left. */
function* plainResent(config: RedissonConfig, command: string[], retry: boolean, timeoutUs: number): EffectProgram<Exclude<Outcome, { kind: 'no-sync' }>> {
  for (let attempt = 0; ; attempt++) {
    if (!(yield* resend(config, retry, attempt))) return { kind: 'timeout', sends: attempt + 1 };
    const r = (yield timedCommand(command, timeoutUs)) as RedisOutcome;
    if (r.status === 'ok') return replyOf(r.reply);
  }
}

const REPLY_NIL: Outcome = { kind: 'reply', reply: null };
const REPLY_0: Outcome = { kind: 'reply', reply: 0 };
const REPLY_1: Outcome = { kind: 'reply', reply: 1 };

/**
 * A reply as an outcome. Outcomes are only read, never changed or kept apart from their
 * reply: the lock scripts' commonest replies (nil: taken or renewed; 0 and 1) share one each.
 */
function replyOf(reply: RedisReply): { kind: 'reply'; reply: RedisReply } {
  if (reply === null) return REPLY_NIL as { kind: 'reply'; reply: RedisReply };
  if (reply === 1) return REPLY_1 as { kind: 'reply'; reply: RedisReply };
  if (reply === 0) return REPLY_0 as { kind: 'reply'; reply: RedisReply };
  return { kind: 'reply', reply };
}

/**
 * After send number `attempt` + 1 left a reply missing: false when no re-send is left, else true
 * once the retry delay has passed. Before 3.15.2 the re-send went out at the response timeout
 * itself (redisson#3494).
 */
function* resend(config: RedissonConfig, retry: boolean, attempt: number): EffectProgram<boolean> {
  if (!retry || attempt >= config.retryAttempts) return false;
  if (config.b.waitBeforeResend) yield sleep((yield* retryDelayMs(config, attempt)) * 1000);
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
/**
 * The settings of one Redisson client for a variant (its Config, by version `b`), made once
 * per client process at its first call: RLock's and the semaphores' alike.
 */
export function* clientConfig(params: LockParams, b: RedissonBehaviour): EffectProgram<RedissonConfig> {
  return {
    b,
    setup: (yield REDIS_SETUP_EFFECT) as RedisSetup,
    retryAttempts: params.commandRetries ?? b.retryAttempts,
    // BaseConfig.setRetryInterval sets a ConstantDelay (3.48+), as retryInterval always was.
    retryDelay: params.commandRetryIntervalMs === null ? b.retryDelay : { kind: 'constant', ms: params.commandRetryIntervalMs },
    checkSyncedSlaves: params.syncReplicas,
    watchdogOnError: params.watchdogOnError,
    lockWatchdogTimeoutMs: params.lockWatchdogTimeoutMs,
    slavesSyncTimeoutMs: params.slavesSyncTimeoutMs,
    waitCommands: [],
    sync: yield* syncState(),
  };
}

function* syncState(): EffectProgram<SyncState> {
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

/** knownSync: the script goes alone, through `plain` with the caller's `retry` (a single server, or no WAIT in this version). */
export const SYNC_SINGLE = -2;
/** knownSync: what goes out needs a command first (the WAIT probe, INFO) or a look at the client's replicas: call syncedEval. */
export const SYNC_UNKNOWN = -1;

/**
 * What syncedEval sends, when that is known without an effect: SYNC_SINGLE, SYNC_UNKNOWN, or
 * the replica count n >= 0 WAIT waits for (0: the script alone, re-sent as a batch is). Most
 * lock calls know (the probe's verdict and the count are cached), so a hot caller can send in
 * place (syncedEffect, syncedOutcome) without syncedEval's generator under every command.
 */
export function knownSync(config: RedissonConfig): number {
  const { b, setup } = config;
  // A single server (isSingleConfig) never waits for replicas.
  if (!setup.replicated || b.replicaCount === 'none') return SYNC_SINGLE;
  const state = config.sync;
  if (b.waitProbe !== 'none') {
    if (state.waitSupported === null) return SYNC_UNKNOWN;
    // WAIT unsupported: the script alone, re-sent (as a batch without WAIT is).
    if (!state.waitSupported) return 0;
  }
  if (b.replicaCount === 'info-cached' && state.cachedReplicas !== -1) return state.cachedReplicas;
  return SYNC_UNKNOWN;
}

/**
 * WAIT <n> <slavesSyncTimeout>: CommandAsyncService.syncedEval's BatchOptions.syncSlaves
 * (1 s fixed before 3.22.0, Config.getSlavesSyncTimeout() from redisson-3.22.0).
 */
function waitCommand(config: RedissonConfig, n: number): string[] {
  let command = config.waitCommands[n];
  if (command === undefined) {
    command = ['WAIT', String(n), String(config.slavesSyncTimeoutMs)];
    if (n < 64) config.waitCommands[n] = command;
  }
  return command;
}

/** The effect syncedEval yields first for `script` once `n` (knownSync, not SYNC_UNKNOWN) is known. */
export function syncedEffect(config: RedissonConfig, script: string[], n: number): Effect {
  const timeoutUs = config.setup.commandTimeoutUs;
  if (n <= 0) return timedCommand(script, timeoutUs);
  return pipeline([script, waitCommand(config, n)], timeoutUs + (config.b.batchTimeoutAddsWait ? config.slavesSyncTimeoutMs * 1000 : 0));
}

/** The outcome of syncedEffect's answer, or null when a reply is missing (then syncedResent). */
export function syncedOutcome(config: RedissonConfig, n: number, answer: unknown): Outcome | null {
  if (n <= 0) {
    const r = answer as RedisOutcome;
    return r.status === 'ok' ? replyOf(r.reply) : null;
  }
  const first = answer as RedisOutcome[];
  if (!allReplied(first)) return null;
  return syncVerdict(config, n, (first[0] as { reply: RedisReply }).reply, (first[1] as { reply: RedisReply }).reply);
}

/** After syncedEffect's answer missed a reply: the re-sends (RedisExecutor), then the verdict. */
export function* syncedResent(config: RedissonConfig, effect: Effect, n: number, answer: unknown, retry: boolean): EffectProgram<Outcome> {
  if (n <= 0) {
    const { command, timeoutUs } = effect as { command: string[]; timeoutUs: number };
    return yield* plainResent(config, command, n === SYNC_SINGLE ? retry : true, timeoutUs);
  }
  const { commands, timeoutUs } = effect as { commands: string[][]; timeoutUs: number };
  const r = yield* afterFirstBatch(config, commands, answer as RedisOutcome[], true, timeoutUs);
  if ('timeout' in r) return { kind: 'timeout', sends: r.timeout };
  return syncVerdict(config, n, r.replies[0], r.replies[1]);
}

/**
 * syncedEval: a lock script, followed by WAIT when Redis has replicas. `retry` is whether a
 * single server re-sends it (the batch path always does).
 */
export function* syncedEval(config: RedissonConfig, script: string[], retry: boolean): EffectProgram<Outcome> {
  let n = knownSync(config);
  if (n === SYNC_UNKNOWN) {
    const { b } = config;
    const state = config.sync;
    const probe = b.waitProbe === 'none' ? true : state.waitSupported !== null ? state.waitSupported : yield* probeWait(config, state);
    if (probe !== true) {
      if (probe !== false) return probe;
      // Unsupported WAIT: the script alone, re-sent (as a batch without WAIT is).
      n = 0;
    } else {
      const count =
        b.replicaCount === 'client-view'
          ? ((yield REPLICAS_EFFECT) as number)
          : b.replicaCount === 'info-cached' && state.cachedReplicas !== -1
            ? state.cachedReplicas
            : yield* replicasToWaitFor(config, state);
      if (typeof count !== 'number') return count;
      n = count;
    }
  }
  const effect = syncedEffect(config, script, n);
  const answer: unknown = yield effect;
  return syncedOutcome(config, n, answer) ?? (yield* syncedResent(config, effect, n, answer, retry));
}

/** What the replies of a script and its WAIT for `n` replicas (n > 0) make of the call. */
function syncVerdict(config: RedissonConfig, n: number, reply: RedisReply, waited: RedisReply | undefined): Outcome {
  const { b } = config;
  if (isErrorReply(reply)) return { kind: 'reply', reply };
  if (n === 0) return replyOf(reply);
  if (isErrorReply(waited)) return { kind: 'reply', reply: waited };
  const synced = typeof waited === 'number' ? waited : 0;
  if (b.replicaCount === 'info-cached' && (synced < n || (b.cacheResetWhenMore && synced > n))) config.sync.cachedReplicas = -1;
  const fewer = `Only ${synced} of ${n} slaves were synced`;
  switch (b.syncCheck) {
    case 'ignore':
      return replyOf(reply);
    case 'exact':
      return synced !== n ? { kind: 'no-sync', message: fewer, reply } : replyOf(reply);
    case 'strict':
      return config.checkSyncedSlaves && synced < n ? { kind: 'no-sync', message: fewer, reply } : replyOf(reply);
    case 'zero':
      return config.checkSyncedSlaves && synced === 0 ? { kind: 'no-sync', message: b.noSyncMessage, reply } : replyOf(reply);
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
  yield sleep((yield* retryDelayMs(config, run + 1)) * 1000);
}
