/**
 * What a Redis client library does with the commands of a client process, declared once per
 * library and obeyed by both backends: the simulated transport (sim-transport.ts) and the real
 * one (real/real-transport.ts, which configures or wraps ioredis to behave as declared). A
 * variant runs on one of these (its `client` option; the default follows its lock: Redisson's
 * own client for redisson, ioredis under node-redlock, Jedis for the hand-written locks of
 * "From setnx to Redisson", whose code calls `jedis.set(...)`). `lock-sim explain` prints the
 * model of each variant. A user's lock module brings its own client, on both backends.
 *
 * The command timeout is the scenario's `network.command-timeout` for every model (Redisson's
 * `timeout`, Jedis's `soTimeout`, ioredis's `commandTimeout`); node-redlock's multiplexed
 * commands (redis-each without a deadline) have none, as ioredis by default.
 */
import type { ClientModelName } from '../spec/variant.js';

export interface ClientModel {
  name: ClientModelName;
  library: string;
  /**
   * Connections to one Redis node: a pool of this many, each carrying one command (or one
   * pipelined batch) at a time, so a blocking command such as WAIT holds only its own; or
   * 'multiplexed', one connection every command is written to in turn, so a blocked WAIT holds
   * up every command written after it (the server reads a blocked client's next commands only
   * when it is unblocked: redis 7.0.15 networking.c processInputBuffer, CLIENT_BLOCKED).
   */
  pool: number | 'multiplexed';
  /** Where `pool` comes from. */
  poolSource: string;
  /**
   * A command whose connection closes before its reply (the server was killed, a reset):
   * 'fail' at once (no reply: unknown outcome), 'wait' for the command timeout, or 'resend' it
   * on the next connection.
   */
  onClose: 'fail' | 'wait' | 'resend';
  /**
   * A command sent while its connection is down (the server is dead, the path reset): 'fail'
   * at once, 'wait' for a connection until its timeout (never sent after it), or 'queue' it
   * for the next connection (sent then, even if its caller timed out).
   */
  whileDown: 'fail' | 'wait' | 'queue';
  /**
   * How it learns of a failover: Sentinel's +switch-master announcement, at once ('switch-master'),
   * or by asking the Sentinels every `pollMs` ('poll'); `reconnect`: the current connection is
   * closed at the switch and its unanswered commands go to the new primary.
   */
  failover: { detection: 'switch-master'; reconnect: boolean } | { detection: 'poll'; pollMs: number; reconnect: false };
  /** Upstream files and versions each choice comes from. */
  sources: string[];
}

export const CLIENT_MODELS: Readonly<Record<ClientModelName, ClientModel>> = {
  jedis: {
    name: 'jedis',
    library: 'Jedis 5 (JedisPool / JedisSentinelPool): a blocking pool, one command per borrowed connection',
    pool: 8,
    poolSource: 'commons-pool2 GenericObjectPoolConfig.DEFAULT_MAX_TOTAL = 8 (JedisPoolConfig keeps it); a borrow waits for a free connection (blockWhenExhausted, maxWait -1)',
    onClose: 'fail',
    whileDown: 'fail',
    failover: { detection: 'switch-master', reconnect: false },
    sources: [
      'jedis v5.2.0 util/RedisInputStream.java: a read that meets the end of the stream throws JedisConnectionException ("Unexpected end of stream."), a refused connect too (Connection.connect); nothing is re-sent',
      'jedis v5.2.0 JedisSentinelPool.java MasterListener: subscribes to +switch-master on every Sentinel and points the pool at the new master (initMaster); a command already waiting on its socket keeps waiting',
    ],
  },
  redisson: {
    name: 'redisson',
    library: 'Redisson 4 (Netty): a pool of connections per master, the executor re-sends after a response timeout (retryAttempts, in the lock protocol)',
    pool: 64,
    poolSource: 'BaseMasterSlaveServersConfig.masterConnectionPoolSize = 64 (redisson-4.7.0); each command holds its connection until its reply or its response timeout (RedisExecutor.releaseConnection)',
    onClose: 'wait',
    whileDown: 'wait',
    failover: { detection: 'poll', pollMs: 1000, reconnect: false },
    sources: [
      'redisson-4.7.0 client/handler/CommandsQueue.java channelInactive: only commands not yet written fail; a written one waits for its response timeout (RedisExecutor.scheduleResponseTimeout), then the executor re-sends it while retryAttempts last',
      'redisson-4.7.0 command/RedisExecutor.java execute: a command waits for a connection of the pool (getConnection; ConnectionWatchdog reconnects in the background) and gives up at its attempt\'s timeout, unsent',
      'redisson-4.7.0 connection/SentinelConnectionManager.java scheduleChangeCheck: asks the Sentinels for the master every scanInterval = 1000 ms (SentinelServersConfig), after the previous check',
    ],
  },
  ioredis: {
    name: 'ioredis',
    library: 'ioredis 5 with its defaults: one multiplexed connection per server, offline queue, unanswered commands re-sent on reconnect',
    pool: 'multiplexed',
    poolSource: 'ioredis 5.11.1: one socket per Redis instance (lib/Redis.ts); commands are written in turn and answered in order (commandQueue)',
    onClose: 'resend',
    whileDown: 'queue',
    failover: { detection: 'switch-master', reconnect: true },
    sources: [
      'ioredis v5.11.1 lib/redis/event_handler.ts closeHandler/readyHandler: unanswered commands are kept and re-sent on the next ready connection (autoResendUnfulfilledCommands: true), commands sent meanwhile wait in the offline queue (enableOfflineQueue: true); a command whose commandTimeout passed stays queued (lib/Command.ts: its timer only rejects the promise)',
      'ioredis v5.11.1 lib/connectors/SentinelConnector/FailoverDetector.ts: with failoverDetector, +switch-master disconnects the connection, which reconnects to the new master',
    ],
  },
};

/** The pool size a variant runs with: its own `client-pool`, else the model's (null: one multiplexed connection). */
export function poolSizeOf(model: ClientModel, clientPool: number | null): number | null {
  if (model.pool === 'multiplexed') return null;
  return clientPool ?? model.pool;
}

/** One line for explain and the reports. */
export function describeClientModel(model: ClientModel, clientPool: number | null): string {
  const size = poolSizeOf(model, clientPool);
  const pool = size === null ? 'one multiplexed connection per node (a blocked WAIT holds up what follows)' : `a pool of ${size} connections per node (a blocked WAIT holds one)`;
  const close = { fail: 'a closed connection fails its commands at once', wait: 'a closed connection leaves its commands to their timeout', resend: 'a closed connection\'s commands are re-sent on the next one' }[model.onClose];
  const down = { fail: 'a command to a server that is down fails at once', wait: 'a command to a server that is down waits for a connection until its timeout', queue: 'an offline queue' }[model.whileDown];
  const failover =
    model.failover.detection === 'poll'
      ? `asks the Sentinels every ${model.failover.pollMs} ms (redis.rediscover: uniform(0ms, ${model.failover.pollMs}ms) says so)`
      : model.failover.reconnect
        ? 'follows +switch-master at once, re-sending what its old connection had not been answered'
        : 'follows +switch-master at once';
  return `${model.library}; ${pool}; ${close}; ${down}; ${failover}`;
}
