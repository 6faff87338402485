/**
 * Redisson's own names for its Config settings (config/Config.java, config/BaseConfig.java,
 * config/BaseMasterSlaveServersConfig.java @ redisson-4.7.0), as a scenario might write them,
 * and what lock-sim calls each: the option that models it, or why none does. A variant that
 * gives one of these names gets that answer instead of "unknown field". Both spellings are
 * listed: Redisson's camelCase and its kebab-case (the YAML form of the other options).
 */

/** A Redisson Config name and what stands for it here. */
interface RedissonName {
  /** The lock-sim field that models it (null: not modelled, `why` says why). */
  option: string | null;
  why: string;
}

const NAMES: Record<string, RedissonName> = {
  lockWatchdogTimeout: { option: 'lock-watchdog-timeout', why: 'Config.lockWatchdogTimeout' },
  fairLockWaitTimeout: { option: 'thread-wait-time', why: 'Config.fairLockWaitTimeout (3.46.0+; RedissonFairLock\'s threadWaitTime)' },
  threadWaitTime: { option: 'thread-wait-time', why: 'RedissonFairLock.threadWaitTime' },
  slavesSyncTimeout: { option: 'slaves-sync-timeout', why: 'Config.slavesSyncTimeout' },
  checkLockSyncedSlaves: { option: 'sync-replicas', why: 'Config.checkLockSyncedSlaves' },
  retryAttempts: { option: 'command-retries', why: 'BaseConfig.retryAttempts' },
  retryInterval: { option: 'command-retry-interval', why: 'BaseConfig.retryInterval' },
  retryDelay: { option: 'command-retry-interval', why: 'BaseConfig.retryDelay (3.48.0+; a given value is a constant delay)' },
  timeout: { option: 'network.command-timeout', why: 'BaseConfig.timeout, one for every client of the scenario (3000 ms at every tag from redisson-3.11.0 to redisson-4.7.0)' },
  connectionPoolSize: { option: 'client-pool', why: 'SingleServerConfig.connectionPoolSize (64)' },
  masterConnectionPoolSize: { option: 'client-pool', why: 'BaseMasterSlaveServersConfig.masterConnectionPoolSize (64)' },
  connectionMinimumIdleSize: {
    option: null,
    why: 'connectionMinimumIdleSize (24; 32 in 3.11.0) is not modelled: it only says how many connections are opened ahead, and a pooled connection opens at no cost in the model',
  },
  masterConnectionMinimumIdleSize: {
    option: null,
    why: 'masterConnectionMinimumIdleSize (24; 32 in 3.11.0) is not modelled: it only says how many connections are opened ahead, and a pooled connection opens at no cost in the model',
  },
  subscriptionConnectionPoolSize: {
    option: null,
    why: 'subscriptionConnectionPoolSize (50, with subscriptionsPerConnection 5) is not modelled: a waiter subscribes at once; it would wait only with more than 250 lock names waited on at once in one client',
  },
  subscriptionsPerConnection: {
    option: null,
    why: 'subscriptionsPerConnection (5, on subscriptionConnectionPoolSize 50 connections) is not modelled: a waiter subscribes at once; it would wait only with more than 250 lock names waited on at once in one client',
  },
};

const kebab = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const BY_SPELLING = new Map<string, RedissonName & { redisson: string }>();
for (const [redisson, name] of Object.entries(NAMES)) {
  BY_SPELLING.set(redisson, { ...name, redisson });
  BY_SPELLING.set(kebab(redisson), { ...name, redisson });
}

/**
 * What to tell a variant that gave `key`, when it is a Redisson Config name (null: it is not
 * one). A lock-sim option of the same spelling never reaches here: only unknown fields do, and
 * a known option given to the wrong lock (retry-interval, retry-delay on redisson).
 */
export function redissonNameHint(key: string): string | null {
  const name = BY_SPELLING.get(key);
  if (name === undefined) return null;
  if (name.option === null) return `Redisson's ${name.why}`;
  if (name.option === key) return null;
  return `Redisson's ${name.redisson} is ${name.option} here (${name.why})`;
}
