/**
 * The servers' view of lock keys on a real run: the same `key-state` records the simulated
 * Redis writes (runner/run.ts recordKeyState), taken from the real servers, so the checker
 * judges lock-lost, foreign unlocks, stuck and orphan time on real runs too.
 *
 * Per node, two direct connections (not through the proxies, so no fault of the scenario cuts
 * them): `events` subscribes to keyspace notifications of lock keys (redis 7.0.15 notify.c
 * notifyKeyspaceEvent, classes K g $ h x e: set, hset, hincrby, del, hdel, expire, pexpire,
 * expired, evicted, ...), and `reader` reads the key after each one (GET, HGETALL and PTTL in
 * one MULTI), so the record carries the value's owner and the TTL's end. The owner of a value
 * comes from the commands the clients sent (`CommandLedger`): a token names its request; a
 * constant value (SET key "locked") names the request whose SET was still unanswered and said
 * OK, else the earliest unanswered one.
 *
 * Order: a client's reply to a command on a lock key is handed to the engine only after
 * `barrier()`: a PING on each node's `events` connection (its PONG comes after every
 * notification the server queued before it) and the reads those notifications started. So
 * the key-state record of a SET NX precedes the client's "acquired", as in the model.
 * Lock keys are the keys the run's lock-key metrics read: `lock:<sku>`, or for a user module
 * that declares `lock.keys` (e.g. redis-semaphore's `mutex:{key}`) the Redis keys of those
 * patterns, recorded under the request's key as the model records them (runner/run.ts with
 * own-code/key-attribution.ts).
 * Resolution and limits: docs/guides/real-backend.md.
 */
import { Redis } from 'ioredis';
import type { KeyStateOp } from '../../history/operation.js';
import { KEY_PLACEHOLDER, lockKeyAttribution } from '../../own-code/key-attribution.js';
import { LOCK_KEY_NAMESPACE } from '../../variants/lock-key.js';
import { CommandLedger } from './command-ledger.js';
import type { RealDeployment, RealNode } from './deployment.js';
import type { RealTimeDriver } from './realtime.js';

const CHANNEL_PREFIX = '__keyspace@0__:';
/**
 * K: keyspace channel; g: generic (del, expire, ...); $: strings; h: hashes; x: expired; e:
 * evicted (redis.conf 7.0, "EVENT NOTIFICATION").
 */
const NOTIFY_FLAGS = 'Kg$hxe';
/**
 * How often a reply waiting at the barrier looks whether the node stopped: a paused (SIGSTOP)
 * or killed node answers no PING, and a reply from another node must not wait for its SIGCONT
 * or restart. 50 ms is over a hundred loopback round trips (measured here: PING over loopback
 * to redis-server 7.0.15, 0.1-0.4 ms).
 */
const BARRIER_POLL_MS = 50;
/**
 * The longest a reply waits for the barrier of a node that is running: on a loaded machine
 * (load average 13-20 measured here, a full test run beside other work) a live node's PONG
 * and the reads before it took longer than 50 ms, the reply reached the engine before the
 * key's record, and a holder's own release was judged a foreign unlock. A node wedged for
 * another reason still lets replies through after 2 s.
 */
const BARRIER_LIVE_TIMEOUT_MS = 2000;
/**
 * The longest a record waits for the open commands' replies (see CommandLedger.outcomes): a
 * command may never be answered (a paused or dead server, a cut proxy).
 */
const OUTCOME_TIMEOUT_MS = 20;

/** Escapes what Redis' glob (redis 7.0.15 util.c stringmatchlen: `*`, `?`, `[`, `\`) would read as a pattern. */
function globEscape(text: string): string {
  return text.replace(/[*?[\\]/g, (c) => `\\${c}`);
}

/**
 * The Redis glob patterns of the lock keys (for PSUBSCRIBE and KEYS): `lock:*` in each key
 * pattern's `{key}` place (no patterns: the key itself).
 */
export function lockKeyGlobs(patterns: readonly string[] | null): string[] {
  return (patterns ?? [KEY_PLACEHOLDER]).map((p) => {
    const at = p.indexOf(KEY_PLACEHOLDER);
    return `${globEscape(p.slice(0, at))}${LOCK_KEY_NAMESPACE}*${globEscape(p.slice(at + KEY_PLACEHOLDER.length))}`;
  });
}

type Cause = 'write' | 'ttl' | 'delete' | 'expire' | 'evict' | 'sync';

/** Keyspace event names (redis 7.0.15 t_string.c, t_hash.c, db.c, expire.c, evict.c) -> the model's causes. */
export function causeOfEvent(event: string): Cause {
  switch (event) {
    case 'del':
    case 'hdel':
    case 'unlink':
      return 'delete';
    case 'expire':
    case 'pexpire':
    case 'persist':
      return 'ttl';
    case 'expired':
      return 'expire';
    case 'evicted':
      return 'evict';
    default:
      return 'write';
  }
}

interface KnownState {
  holder: string | null;
  /** What the key held at the last record (a string's value, or a hash's fields). */
  values: string[];
  /** When it would expire, as last recorded. */
  expiresAtUs: number | null;
}

type Record = (op: KeyStateOp) => void;

/** The watcher of one node. */
class NodeWatch {
  private readonly events: Redis;
  private readonly reader: Redis;
  /** The reads started so far, in order (the reader's connection answers in order). */
  private lastRead: Promise<void> = Promise.resolve();
  readonly known = new Map<string, KnownState>();
  private closed = false;

  constructor(
    readonly node: RealNode,
    private readonly watch: KeyWatch,
  ) {
    const options = { host: '127.0.0.1', port: node.port, lazyConnect: true, enableAutoPipelining: false, maxRetriesPerRequest: 1 };
    this.events = new Redis(options);
    this.reader = new Redis(options);
    this.events.on('error', () => undefined);
    this.reader.on('error', () => undefined);
    this.events.on('pmessage', (_pattern: string, channel: string, event: string) => this.onEvent(channel.slice(CHANNEL_PREFIX.length), event));
    // A restarted server comes back without the setting and, if empty, without the keys.
    this.reader.on('ready', () => {
      void this.reader.config('SET', 'notify-keyspace-events', NOTIFY_FLAGS).catch(() => undefined);
      if (this.started) this.resync('sync');
    });
  }

  private started = false;

  async start(): Promise<void> {
    await Promise.all([this.events.connect(), this.reader.connect()]);
    await this.reader.config('SET', 'notify-keyspace-events', NOTIFY_FLAGS);
    if (this.watch.globs.length > 0) await this.events.psubscribe(...this.watch.globs.map((glob) => `${CHANNEL_PREFIX}${glob}`));
    this.started = true;
  }

  private onEvent(key: string, event: string): void {
    // A glob's `*` may span more than a pattern's `{key}` admits (a suffix seen twice).
    if (this.watch.lockKeyOf(key) === null) return;
    this.read(key, causeOfEvent(event));
  }

  /** Reads the key and records its state, in the order of the notifications. */
  private read(key: string, cause: Cause): void {
    const reply = this.reader.multi().get(key).hgetall(key).pttl(key).exec();
    this.lastRead = afterInOrder(this.lastRead, reply, () =>
      reply.then(
        async (results) => {
          if (this.closed || !results) return;
          const [get, hash, pttl] = results.map(([err, value]) => (err ? null : value));
          const readUs = this.watch.driver.nowUs();
          const values = typeof get === 'string' ? [get] : hash && typeof hash === 'object' ? Object.keys(hash as object) : [];
          const deleting = cause === 'delete';
          if (this.watch.ledger.ambiguous(this.node.name, key, values, deleting)) await this.watch.ledger.outcomes(this.node.name, key, OUTCOME_TIMEOUT_MS);
          this.watch.driver.inject(() => this.record(key, cause, get, hash, pttl, readUs));
        },
        () => undefined,
      ),
    );
  }

  /** Re-reads every lock key the node has or had (after a restart, at a promotion). */
  resync(cause: Cause): void {
    const keys = Promise.all(this.watch.globs.map((glob) => this.reader.keys(glob)));
    this.lastRead = afterInOrder(this.lastRead, keys, () =>
      keys.then(
        (present) => {
          const lockKeys = present.flat().filter((key) => this.watch.lockKeyOf(key) !== null);
          for (const key of new Set([...this.known.keys(), ...lockKeys])) this.read(key, cause);
        },
        () => undefined,
      ),
    );
  }

  private record(key: string, cause: Cause, get: unknown, hash: unknown, pttl: unknown, readUs: number): void {
    const ledger = this.watch.ledger;
    const requestKey = this.watch.lockKeyOf(key);
    if (requestKey === null) return;
    const values = typeof get === 'string' ? [get] : hash && typeof hash === 'object' ? Object.keys(hash as object) : [];
    const gone = cause === 'delete' || cause === 'expire' || cause === 'evict';
    // The read comes a round trip after the event: a key gone at a delete's event is recorded
    // gone even if a later write already re-created it (that write's own event records it),
    // and a write whose key is gone by the read leaves the record to the deletion's event.
    const exists = !gone && values.length > 0;
    if (!exists && !gone && cause !== 'sync') return;
    const serving = this.watch.serving(this.node.name);
    const effectiveCause: Cause = serving ? cause : 'sync';
    const known = this.known.get(key);
    const previous = known?.holder ?? null;
    // A TTL change (a renewal's PEXPIRE, a re-entry's) writes no value: the value's owner stays
    // its holder, as the model's keyspace keeps holderTag on setExpire (whoever sent it).
    const sameValues = known !== undefined && known.holder !== null && sameSet(known.values, values);
    const holder = !exists ? null : cause === 'ttl' && sameValues ? known.holder : (ledger.ownerOf(this.node.name, key, values) ?? `unknown:${values[0]}`);
    if (holder === null && previous === null) return;
    const ttlMs = typeof pttl === 'number' ? pttl : -2;
    const expiresAtUs = exists && ttlMs >= 0 ? readUs + ttlMs * 1000 : null;
    this.known.set(key, { holder, values, expiresAtUs });
    const by = !serving ? '' : effectiveCause === 'delete' ? ledger.deleterOf(this.node.name, key, known?.values ?? []) : effectiveCause === 'write' || effectiveCause === 'ttl' ? (holder ?? '') : '';
    this.recordKeyState(requestKey, holder, expiresAtUs, effectiveCause, by, previous);
  }

  /**
   * The key, recorded as `from`'s, was written for `to` (the request whose acquire returned
   * the lock took over a write its identity had guessed: request-identity.ts): recorded as an
   * 'attributed' change, no change of the server's state, as the model's RedisNode.reattribute
   * records it. Called in an engine step (driver.inject).
   */
  reattribute(key: string, from: string, to: string): void {
    const known = this.known.get(key);
    const requestKey = this.watch.lockKeyOf(key);
    if (known === undefined || known.holder !== from || requestKey === null) return;
    known.holder = to;
    this.recordKeyState(requestKey, to, known.expiresAtUs, 'attributed', to, from);
  }

  /** A key-state op of this node in the history (stamped by the recorder: index and time 0 here). */
  private recordKeyState(requestKey: string, holder: string | null, expiresAtUs: number | null, cause: Cause | 'attributed', by: string, previousHolder: string | null): void {
    this.watch.recordOp({ index: 0, timeUs: 0, process: this.node.name, type: 'info', f: 'key-state', node: this.node.name, key: requestKey, holder, expiresAtUs, cause, by, previousHolder });
  }

  /** Resolves once every notification queued before now has been read and recorded. */
  barrier(): Promise<void> {
    if (this.closed || this.events.status !== 'ready' || this.stopped()) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let waitedMs = 0;
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      // Until the PONG and the reads before it, unless the node stops meanwhile.
      const look = (): void => {
        waitedMs += BARRIER_POLL_MS;
        if (this.closed || this.stopped() || waitedMs >= BARRIER_LIVE_TIMEOUT_MS) done();
        else timer = setTimeout(look, BARRIER_POLL_MS); // lock-sim: wall-clock ok (the barrier's wait on a real server)
      };
      timer = setTimeout(look, BARRIER_POLL_MS); // lock-sim: wall-clock ok (the same)
      this.events.ping().then(
        () => this.lastRead.then(done),
        done,
      );
    });
  }

  /** Paused (SIGSTOP) or killed: it answers nothing until the fault ends. */
  private stopped(): boolean {
    return this.node.paused || !this.node.process.running;
  }

  close(): void {
    this.closed = true;
    this.events.disconnect();
    this.reader.disconnect();
  }
}


/**
 * `next()` once `previous` is done: the reads are recorded in the order they were sent. The
 * reply `started` (already under way) is marked handled at once: when a server is killed, ioredis
 * rejects every queued reply ("Connection is closed.") while earlier reads are still waiting
 * their turn, and a rejection with no handler yet ends Node (unhandled rejection); `next` sees
 * the rejection in its turn.
 */
export function afterInOrder(previous: Promise<void>, started: Promise<unknown>, next: () => Promise<void>): Promise<void> {
  started.catch(() => undefined);
  return previous.then(next);
}

/** Whether two lists hold the same strings (a hash's fields in any order). */
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

export class KeyWatch {
  readonly ledger: CommandLedger;
  /** The request's lock key a Redis key stands for, or null when it is no lock key. */
  readonly lockKeyOf: (key: string) => string | null;
  /** The Redis globs of the lock keys (keyspace channels, KEYS at a resync). */
  readonly globs: string[];
  private readonly watches: NodeWatch[] = [];

  /**
   * `keyPatterns`: a user module's `lock.keys` (null: the request's key itself). `namesHolders`
   * false: the lock's keys name no holder (a semaphore's permit counter), so none is watched
   * and no key-state is recorded, as the model records none (runner/run.ts noLockKey).
   */
  constructor(
    readonly deployment: RealDeployment,
    readonly driver: RealTimeDriver,
    readonly recordOp: Record,
    keyPatterns: readonly string[] | null = null,
    namesHolders = true,
  ) {
    this.lockKeyOf = namesHolders ? lockKeyAttribution(keyPatterns) : () => null;
    this.globs = namesHolders ? lockKeyGlobs(keyPatterns) : [];
    this.ledger = new CommandLedger(this.lockKeyOf);
  }

  async start(): Promise<void> {
    for (const node of this.deployment.nodes) this.watches.push(new NodeWatch(node, this));
    await Promise.all(this.watches.map((w) => w.start()));
  }

  /** Whether clients' commands reach this node now (a replica's changes are replication: 'sync'). */
  serving(name: string): boolean {
    return this.deployment.topology !== 'sentinel' || this.deployment.primaryName === name;
  }

  /**
   * The notifications so far of `node` (null: every node, for a reply from the primary
   * Sentinel names) are read and recorded (see the file comment).
   */
  async barrier(node: string | null): Promise<void> {
    await Promise.all(this.watches.filter((w) => node === null || w.node.name === node).map((w) => w.barrier()));
  }

  /** A guessed write taken over by the request whose acquire returned the lock (NodeWatch.reattribute), on every node. */
  reattribute(key: string, from: string, to: string): void {
    for (const w of this.watches) w.reattribute(key, from, to);
  }

  /** A node promoted by Sentinel: its lock keys read again, so their owners are known. */
  promoted(name: string): void {
    this.watches.find((w) => w.node.name === name)?.resync('sync');
  }

  close(): void {
    for (const w of this.watches) w.close();
  }
}
