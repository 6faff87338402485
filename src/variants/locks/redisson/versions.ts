/**
 * What each Redisson version does, in one table. A version's behaviour is the 3.11 baseline
 * with every change up to and including that version applied, in order. Each change names
 * the upstream file and tag it was read from (github.com/redisson/redisson, paths under
 * redisson/src/main/java/org/redisson/), and `lock-sim list` prints the table.
 */
/** How long Redisson waits before re-sending (config/DelayStrategy). */
export type DelayStrategy =
  | { kind: 'constant'; ms: number }
  /** EqualJitterDelay: half of min(base x 2^attempt, max), plus a uniform draw up to the other half. */
  | { kind: 'equal-jitter'; baseMs: number; maxMs: number };

/** Where the replica count for WAIT comes from. */
type ReplicaCountSource =
  /** No WAIT at all. */
  | 'none'
  /** The client's own count of replicas it is connected to (MasterSlaveEntry.getAvailableSlaves). */
  | 'client-view'
  /** INFO REPLICATION `connected_slaves`, asked only when the client itself sees replicas. */
  | 'info-if-client-sees-replicas'
  /** INFO `connected_slaves` before every lock command. */
  | 'info'
  /** INFO once, the count cached per master entry until WAIT disagrees with it. */
  | 'info-cached';

/** What a WAIT result below the replica count does. */
type SyncCheck =
  /** Nothing: the result is ignored. */
  | 'ignore'
  /** An error when WAIT's count differs at all. */
  | 'exact'
  /** An error when fewer acknowledged (checkLockSyncedSlaves). */
  | 'strict'
  /** An error only when none acknowledged (checkLockSyncedSlaves). */
  | 'zero';

export interface RedissonBehaviour {
  /** BaseConfig.retryAttempts: re-sends after the first attempt. */
  retryAttempts: number;
  /** BaseConfig.retryInterval / retryDelay. */
  retryDelay: DelayStrategy;
  /** After a response timeout, wait the retry delay before re-sending (else re-send at once). */
  waitBeforeResend: boolean;
  /** Acquire and unlock are never re-sent on a single server (syncedEvalNoRetry). */
  lockNoRetryOnSingleServer: boolean;
  replicaCount: ReplicaCountSource;
  /** The INFO section asked for the replica count. */
  infoSection: 'replication' | 'all';
  /** The cached count is also reset when more replicas acknowledged than counted. */
  cacheResetWhenMore: boolean;
  syncCheck: SyncCheck;
  /** The checkLockSyncedSlaves setting exists (sync-replicas). */
  hasCheckLockSyncedSlaves: boolean;
  /** The slavesSyncTimeout setting exists (slaves-sync-timeout); before, WAIT waits a fixed 1 s. */
  hasSlavesSyncTimeout: boolean;
  /** A batch with WAIT is given `timeout` + the WAIT timeout to answer (else `timeout`). */
  batchTimeoutAddsWait: boolean;
  /** The text of the "no replica acknowledged" error. */
  noSyncMessage: string;
  /** handleNoSync and the retries recognise that error by its class, not by its text. */
  noSyncMatchedByClass: boolean;
  /** handleNoSync: an acquire whose WAIT failed unlocks what it took (when it recognises the error). */
  giveBackOnNoSync: boolean;
  /** ServiceManager.execute: the whole acquire runs again after a recognised no-sync error. */
  retryAcquireOnNoSync: boolean;
  /** The same for unlock. */
  retryUnlockOnNoSync: boolean;
  /** A re-run unlock keeps its request id (and so finds its own latch). */
  unlockKeepsRequestId: boolean;
  /** Whether WAIT is supported is probed once: WAIT 0 0, or WAIT 0 0 with WAITAOF 0 0 0. */
  waitProbe: 'none' | 'wait' | 'wait-and-waitaof';
  /** A probe that met an unknown WAITAOF sends that one call without sync. */
  probeFailureSkipsSync: boolean;
  /** One renewal timer per lock name (3.x), or one per client for every lock (3.44+). */
  renewal: 'per-lock' | 'shared';
  /** A renewal error removes the renewal entry (else it stays, without a timer). */
  renewalErrorRemovesEntry: boolean;
  /** A renewal that finds the lock gone removes the entry (else it stays until unlock). */
  renewalMissRemovesEntry: boolean;
  /** Unlock cancels renewal whatever the reply (else not after a nil: the entry leaks). */
  unlockAlwaysCancelsRenewal: boolean;
  /** Unlock records its result in a latch key (redisson_unlock_latch), so a re-sent unlock is safe. */
  unlockLatch: boolean;
  /** The latch's PX is at least 1 ms (else 0 with retryAttempts 0: the script fails after releasing). */
  latchAtLeastOneMs: boolean;
  /** watchdog-on-error default. */
  watchdogOnError: 'stop' | 'continue';
}

interface RedissonChange {
  /** The first version that behaves so. */
  since: string;
  /** What changes, one line (for `list` and docs/model/redisson-versions.md). */
  what: string;
  /** Upstream file(s) @ tag, and issue. */
  source: string;
  apply(b: RedissonBehaviour): void;
}

/**
 * The text of the "no replica synced" error up to 3.24.x, and the text handleNoSync and
 * ServiceManager.execute compare with (3.20.0-3.46.x).
 */
export const NO_SYNC = 'None of slaves were synced';

/** Redisson 3.11.0 (redisson-3.11.5 read; the retry loop is in CommandAsyncService up to 3.11.2). */
const BASELINE: RedissonBehaviour = {
  retryAttempts: 3,
  retryDelay: { kind: 'constant', ms: 1_500 },
  waitBeforeResend: false,
  lockNoRetryOnSingleServer: false,
  replicaCount: 'none',
  infoSection: 'replication',
  cacheResetWhenMore: false,
  syncCheck: 'ignore',
  hasCheckLockSyncedSlaves: false,
  hasSlavesSyncTimeout: false,
  batchTimeoutAddsWait: false,
  noSyncMessage: NO_SYNC,
  noSyncMatchedByClass: false,
  giveBackOnNoSync: false,
  retryAcquireOnNoSync: false,
  retryUnlockOnNoSync: false,
  unlockKeepsRequestId: false,
  waitProbe: 'none',
  probeFailureSkipsSync: false,
  renewal: 'per-lock',
  renewalErrorRemovesEntry: false,
  renewalMissRemovesEntry: false,
  unlockAlwaysCancelsRenewal: false,
  unlockLatch: false,
  latchAtLeastOneMs: false,
  watchdogOnError: 'stop',
};

export const BASELINE_VERSION = '3.11.0';

export const BASELINE_WHAT = [
  'a command without a reply within `timeout` (3000 ms) is re-sent at once, up to retryAttempts (3) more times: a silent server fails a command after 4 x 3 s = 12 s',
  'one watchdog timer per lock name and client renews every 10 s (lockWatchdogTimeout / 3); a failed renewal stops it',
  'an unlock answered nil (not the holder) leaves the renewal entry: later locks of that name in that client get no watchdog',
  'a failed renewal, or one that finds the lock gone, leaves the entry without a timer until the holder unlocks',
  'no WAIT for replicas',
];

export const BASELINE_SOURCE =
  'config/BaseConfig.java (timeout 3000, retryAttempts 3, retryInterval 1500), command/RedisExecutor.java scheduleResponseTimeout, RedissonLock.java renewExpiration / scheduleExpirationRenewal / unlockAsync @ redisson-3.11.5';

export const REDISSON_CHANGES: readonly RedissonChange[] = [
  {
    since: '3.12.1',
    what: 'unlock cancels renewal whatever the reply: a nil unlock no longer leaks the renewal entry',
    source: 'RedissonLock.java unlockAsync @ redisson-3.12.1 (commit 2464e06, redisson#2515)',
    apply: (b) => void (b.unlockAlwaysCancelsRenewal = true),
  },
  {
    since: '3.12.5',
    what: 'lock, renew and unlock scripts go in a batch with WAIT <replicas the client is connected to> 1000; the WAIT result is ignored',
    source: 'RedissonLock.java evalWriteAsync / createCommandBatchService @ redisson-3.12.5 (redisson#2669)',
    apply: (b) => {
      b.replicaCount = 'client-view';
    },
  },
  {
    since: '3.14.0',
    what: 'a failed renewal removes the renewal entry',
    source: 'RedissonLock.java renewExpiration @ redisson-3.14.0',
    apply: (b) => void (b.renewalErrorRemovesEntry = true),
  },
  {
    since: '3.14.1',
    what: 'a batch with WAIT gets timeout + the WAIT timeout (3 s + 1 s) to answer',
    source: 'command/RedisCommonBatchExecutor.java constructor @ redisson-3.14.1',
    apply: (b) => void (b.batchTimeoutAddsWait = true),
  },
  {
    since: '3.15.2',
    what: 'a re-send waits retryInterval (1500 ms) after the response timeout: a silent server fails a command after 4 x 3 s + 3 x 1.5 s = 16.5 s',
    source: 'command/RedisExecutor.java scheduleResponseTimeout @ redisson-3.15.2 (redisson#3494)',
    apply: (b) => void (b.waitBeforeResend = true),
  },
  {
    since: '3.16.1',
    what: 'a renewal that finds the lock gone removes the renewal entry',
    source: 'RedissonBaseLock.java renewExpiration @ redisson-3.16.1',
    apply: (b) => void (b.renewalMissRemovesEntry = true),
  },
  {
    since: '3.16.7',
    what: 'a WAIT count different from the replica count fails the command ("Only N of M slaves were synced"); the lock taken stays held',
    source: 'RedissonBaseLock.java evalWriteAsync @ redisson-3.16.7',
    apply: (b) => void (b.syncCheck = 'exact'),
  },
  {
    since: '3.17.0',
    what: 'checkLockSyncedSlaves (sync-replicas, default true): only fewer acknowledgements than replicas fail',
    source: 'RedissonBaseLock.java evalWriteAsync, config/Config.java @ redisson-3.17.0 (redisson#4139)',
    apply: (b) => {
      b.syncCheck = 'strict';
      b.hasCheckLockSyncedSlaves = true;
    },
  },
  {
    since: '3.17.5',
    what: 'only WAIT 0 (no replica acknowledged) fails: "None of slaves were synced"; the lock taken stays held',
    source: 'RedissonBaseLock.java evalWriteAsync @ redisson-3.17.5',
    apply: (b) => void (b.syncCheck = 'zero'),
  },
  {
    since: '3.18.1',
    what: 'the replica count comes from INFO REPLICATION connected_slaves (asked when the client sees replicas)',
    source: 'RedissonBaseLock.java evalWriteAsync @ redisson-3.18.1',
    apply: (b) => void (b.replicaCount = 'info-if-client-sees-replicas'),
  },
  {
    since: '3.20.0',
    what: 'handleNoSync: an acquire that got "None of slaves were synced" unlocks what it took (compares the error text)',
    source: 'RedissonBaseLock.java handleNoSync, RedissonLock.java tryAcquireAsync @ redisson-3.20.0',
    apply: (b) => void (b.giveBackOnNoSync = true),
  },
  {
    since: '3.20.1',
    what: 'INFO REPLICATION before every lock command',
    source: 'RedissonBaseLock.java evalWriteAsync @ redisson-3.20.1',
    apply: (b) => void (b.replicaCount = 'info'),
  },
  {
    since: '3.21.0',
    what: 'the whole acquire runs again on "None of slaves were synced", up to retryAttempts (3) times, retryInterval (1500 ms) apart',
    source: 'connection/ServiceManager.java execute, RedissonLock.java tryAcquireAsync0 @ redisson-3.21.0',
    apply: (b) => void (b.retryAcquireOnNoSync = true),
  },
  {
    since: '3.22.0',
    what: 'slavesSyncTimeout (slaves-sync-timeout, default 1000 ms): the WAIT timeout, fixed at 1 s before',
    source: 'config/Config.java slavesSyncTimeout, command/CommandAsyncService.java syncedEval @ redisson-3.22.0',
    apply: (b) => void (b.hasSlavesSyncTimeout = true),
  },
  {
    since: '3.24.0',
    what: 'unlock latch: a re-sent unlock whose first copy ran answers its result instead of nil; unlock also runs again on "None of slaves were synced" (with a new request id)',
    source: 'RedissonLock.java unlockInnerAsync, RedissonBaseLock.java unlockAsync @ redisson-3.24.0 (redisson#4871)',
    apply: (b) => {
      b.unlockLatch = true;
      b.retryUnlockOnNoSync = true;
    },
  },
  {
    since: '3.24.3',
    what: 'the latch PX is at least 1 ms (with retryAttempts 0 it was 0: the unlock script failed after releasing)',
    source: 'RedissonBaseLock.java unlockInnerAsync @ redisson-3.24.3',
    apply: (b) => void (b.latchAtLeastOneMs = true),
  },
  {
    since: '3.25.0',
    what: 'the error text gains "Try to increase slavesSyncTimeout...", and handleNoSync and the retries still compare the old text: an unsynced lock is neither given back nor retried, it stays held for its lease (30 s orphan)',
    source: 'command/CommandAsyncService.java syncedEval / handleNoSync, connection/ServiceManager.java execute @ redisson-3.25.0',
    apply: (b) => void (b.noSyncMessage = `${NO_SYNC}. Try to increase slavesSyncTimeout setting or set checkLockSyncedSlaves = false.`),
  },
  {
    since: '3.26.1',
    what: 'WAIT support is probed once per client (WAIT 0 0) before the first synced command',
    source: 'command/CommandAsyncService.java syncedEval @ redisson-3.26.1',
    apply: (b) => void (b.waitProbe = 'wait'),
  },
  {
    since: '3.27.0',
    what: 'the replica count is cached per master entry: INFO only when unknown, forgotten when WAIT acknowledges fewer',
    source: 'command/CommandAsyncService.java syncedEval @ redisson-3.27.0 (redisson#5614)',
    apply: (b) => void (b.replicaCount = 'info-cached'),
  },
  {
    since: '3.37.0',
    what: 'on a single server acquire and unlock are never re-sent (syncedEvalNoRetry); with replicas the batch still is',
    source: 'RedissonLock.java tryLockInnerAsync / unlockInnerAsync, command/CommandAsyncService.java syncedEval @ redisson-3.37.0',
    apply: (b) => void (b.lockNoRetryOnSingleServer = true),
  },
  {
    since: '3.44.0',
    what: 'one renewal timer per client renews every lock in one script every 10 s and keeps going after an error (watchdog-on-error continue)',
    source: 'renewal/LockRenewalScheduler.java, renewal/RenewalTask.java, renewal/LockTask.java @ redisson-3.44.0',
    apply: (b) => {
      b.renewal = 'shared';
      b.watchdogOnError = 'continue';
    },
  },
  {
    since: '3.46.0',
    what: 'the probe is WAIT 0 0 + WAITAOF 0 0 0; the count comes from INFO ALL and is also forgotten when more replicas acknowledge; a probe that meets an unknown WAITAOF (Redis < 7.2) sends that call without sync',
    source: 'command/CommandAsyncService.java syncedEval @ redisson-3.46.0',
    apply: (b) => {
      b.waitProbe = 'wait-and-waitaof';
      b.infoSection = 'all';
      b.cacheResetWhenMore = true;
      b.probeFailureSkipsSync = true;
    },
  },
  {
    since: '3.47.0',
    what: 'NoSyncedSlavesException: the unsynced lock is given back and the acquire (and unlock) retried again',
    source: 'command/CommandAsyncService.java handleNoSync, connection/ServiceManager.java execute @ redisson-3.47.0 (commit f2b6ad8)',
    apply: (b) => void (b.noSyncMatchedByClass = true),
  },
  {
    since: '3.48.0',
    what: 'retryAttempts 4 and retryDelay EqualJitterDelay(1000 ms, 2 s): a silent server fails a command after 5 x 3 s + 3.5-7 s of delays',
    source: 'config/BaseConfig.java, config/EqualJitterDelay.java, connection/ServiceManager.java execute @ redisson-3.48.0',
    apply: (b) => {
      b.retryAttempts = 4;
      b.retryDelay = { kind: 'equal-jitter', baseMs: 1_000, maxMs: 2_000 };
    },
  },
  {
    since: '3.52.0',
    what: 'a re-run unlock keeps its request id, so it finds its own latch; a probe that meets only an unknown WAITAOF keeps sync on',
    source: 'RedissonBaseLock.java unlockAsync, command/CommandAsyncService.java syncedEval @ redisson-3.52.0',
    apply: (b) => {
      b.unlockKeepsRequestId = true;
      b.probeFailureSkipsSync = false;
    },
  },
];

/**
 * Released versions the table covers: the redisson-X.Y.Z tags of github.com/redisson/redisson
 * from 3.11.0 (3.31.0 is tagged redisson-parent-3.31.0).
 */
export const REDISSON_VERSIONS: readonly string[] = `3.11.0 3.11.1 3.11.2 3.11.3 3.11.4 3.11.5 3.11.6 3.12.0 3.12.1 3.12.2 3.12.3
3.12.4 3.12.5 3.13.0 3.13.1 3.13.2 3.13.3 3.13.4 3.13.5 3.13.6 3.14.0 3.14.1 3.15.0 3.15.1 3.15.2 3.15.3 3.15.4 3.15.5
3.15.6 3.16.0 3.16.1 3.16.2 3.16.3 3.16.4 3.16.5 3.16.6 3.16.7 3.16.8 3.17.0 3.17.1 3.17.2 3.17.3 3.17.4 3.17.5 3.17.6
3.17.7 3.18.0 3.18.1 3.19.0 3.19.1 3.19.2 3.19.3 3.20.0 3.20.1 3.21.0 3.21.1 3.21.2 3.21.3 3.22.0 3.22.1 3.23.0 3.23.1
3.23.2 3.23.3 3.23.4 3.23.5 3.24.0 3.24.1 3.24.2 3.24.3 3.25.0 3.25.1 3.25.2 3.26.0 3.26.1 3.27.0 3.27.1 3.27.2 3.28.0
3.29.0 3.30.0 3.31.0 3.32.0 3.33.0 3.34.0 3.34.1 3.35.0 3.36.0 3.37.0 3.38.0 3.38.1 3.39.0 3.40.0 3.40.1 3.40.2 3.41.0
3.42.0 3.43.0 3.44.0 3.45.0 3.45.1 3.46.0 3.47.0 3.48.0 3.49.0 3.50.0 3.51.0 3.52.0 4.0.0 4.1.0 4.2.0 4.3.0 4.3.1 4.4.0
4.5.0 4.6.0 4.6.1 4.7.0`.split(/\s+/);

/** The newest release (tag redisson-4.7.0, 2026-08-04); nothing the model reads changed in 4.x. */
export const DEFAULT_REDISSON_VERSION = '4.7.0';

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

const atLeast = (version: string, since: string): boolean => compareVersions(version, since) >= 0;

const cache = new Map<string, RedissonBehaviour>();

/** The behaviour of one released version. */
export function behaviourOf(version: string): RedissonBehaviour {
  let b = cache.get(version);
  if (!b) {
    const built: RedissonBehaviour = { ...BASELINE, retryDelay: { ...BASELINE.retryDelay } };
    for (const change of REDISSON_CHANGES) if (atLeast(version, change.since)) change.apply(built);
    b = Object.freeze(built);
    cache.set(version, b);
  }
  return b;
}
