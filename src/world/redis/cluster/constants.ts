/**
 * Redis Cluster's fixed periods and multipliers (redis 7.0.15 src/cluster.h, src/cluster.c,
 * src/server.c; redis.conf defaults), shared by the parts of the Cluster model.
 */
export const MS = 1000;
/** serverCron runs clusterCron every 100 ms (run_with_period(100), hz 10). */
export const CLUSTER_CRON_PERIOD_MS = 100;
/** clusterCron pings a random node every 10 iterations. */
export const CLUSTER_RANDOM_PING_EVERY = 10;
export const CLUSTER_RANDOM_PING_SAMPLES = 5;
/** cluster.h CLUSTER_FAIL_REPORT_VALIDITY_MULT. */
export const CLUSTER_FAIL_REPORT_VALIDITY_MULT = 2;
/** cluster.h CLUSTER_FAIL_UNDO_TIME_MULT. */
export const CLUSTER_FAIL_UNDO_TIME_MULT = 2;
/** clusterHandleSlaveFailover: DELAY = 500 ms + random(0..500 ms) + REPLICA_RANK * 1000 ms. */
export const CLUSTER_ELECTION_FIXED_US = 500 * MS;
export const CLUSTER_ELECTION_RANDOM_MS = 500;
export const CLUSTER_ELECTION_RANK_US = 1000 * MS;
/** cluster.h CLUSTER_MIN_REJOIN_DELAY / CLUSTER_MAX_REJOIN_DELAY. */
export const CLUSTER_MIN_REJOIN_DELAY_US = 500 * MS;
export const CLUSTER_MAX_REJOIN_DELAY_US = 5000 * MS;
/** cluster-replica-validity-factor default, and repl-ping-replica-period (10 s). */
export const CLUSTER_REPLICA_VALIDITY_FACTOR = 10;
export const REPL_PING_REPLICA_PERIOD_US = 10_000 * MS;
