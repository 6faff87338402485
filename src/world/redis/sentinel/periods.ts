/**
 * Sentinel's fixed periods and defaults (redis 7.0.15 src/sentinel.c, server.h), in
 * microseconds, shared by the parts of the Sentinel model.
 */
export const MS = 1000;
export const SENTINEL_PING_PERIOD_US = 1000 * MS;
export const SENTINEL_INFO_PERIOD_US = 10_000 * MS;
/**
 * INFO period for replicas of a master in ODOWN or failover, and for a replica that reports
 * its master link down (sentinelSendPeriodicCommands: "we start sending it INFO every second").
 */
export const SENTINEL_FAST_INFO_PERIOD_US = 1000 * MS;
export const SENTINEL_ASK_PERIOD_US = 1000 * MS;
export const SENTINEL_PUBLISH_PERIOD_US = 2000 * MS;
export const SENTINEL_ELECTION_TIMEOUT_US = 10_000 * MS;
export const SENTINEL_MAX_DESYNC_MS = 1000;
/** sentinel.conf parallel-syncs default. */
export const SENTINEL_PARALLEL_SYNCS = 1;
/** server.h CONFIG_DEFAULT_HZ; sentinelTimer sets hz = 10 + rand() % 10 after each tick. */
export const CONFIG_DEFAULT_HZ = 10;
