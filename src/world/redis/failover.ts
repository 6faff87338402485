/**
 * What the failover deciders (the Sentinels, or the masters of a Redis Cluster) see of the
 * Redis nodes and what they may do to them, and what they report back. The deployment
 * implements `RedisControl`; the deciders never touch a node's role themselves.
 */
import type { RandomStream } from '../../engine/random.js';
import type { Simulation } from '../../engine/simulation.js';
import type { RedisNode } from './node.js';

/**
 * The gap between two runs of a Redis timer (serverCron, which runs sentinelTimer and
 * clusterCron) that returns `periodMs`: the next run is set from the end of this one
 * (redis 7.0.15 src/ae.c processTimeEvents: `te->when = now + retval * 1000`) and
 * epoll_wait's timeout is rounded up to a whole millisecond (src/ae_epoll.c aeApiPoll), so
 * each gap is the period plus up to a millisecond.
 */
export function timerGapUs(periodMs: number, rng: RandomStream): number {
  return periodMs * 1000 + rng.int(0, 999);
}

/** What `INFO replication` tells a decider about a node, read when the node runs the command. */
export interface NodeSnapshot {
  role: 'primary' | 'replica';
  /** master_repl_offset of a primary, slave_repl_offset of a replica. */
  offset: number;
  /** The node a replica follows (master_host / master_port); null for a primary. */
  upstream: RedisNode | null;
  /** Since when a replica's link to its primary has been down (null: up). */
  linkDownSinceUs: number | null;
  /** run_id: 40 hex characters, new at every start of the process. */
  runId: string;
}

export interface RedisControl {
  readonly nodes: readonly RedisNode[];
  snapshot(node: RedisNode): NodeSnapshot;
  /** REPLICAOF NO ONE ran on `node`: it is a primary from now on. */
  promote(node: RedisNode): void;
  /** REPLICAOF <primary> ran on `node`: it drops its data and copies `primary`. */
  follow(node: RedisNode, primary: RedisNode): void;
}

/** A step of failure detection or failover, for the history (`sdown`, `odown`, `pfail`, `fail`, ...). */
export type PhaseListener = (phase: string, target: RedisNode, detail: string) => void;

/**
 * A Redis timer (serverCron) whose idle runs are skipped. The runs' times are drawn in
 * order from the timer's own stream whether a run happens or not, so the runs that do happen
 * fall exactly where they would have; `dueUs` says when the next run has anything to do
 * (the caller's view of its own state), and `plan()` is called again whenever that state
 * changes between runs. `everyRun` runs them all (tests compare the two).
 */
export class SkippableTimer {
  /**
   * Run times drawn and not yet reached, with their index (runs since the start): `atUs[i]`
   * and `index[i]` for i from `head` to `tail` (two arrays of numbers that keep their length:
   * a Sentinel draws a run time every 50-100 ms, skipped or not, and an object per draw and
   * an array shift per run were a good part of its cost).
   */
  private readonly atUs: number[] = [];
  private readonly index: number[] = [];
  private head = 0;
  private tail = 0;
  private lastAtUs: number;
  private lastIndex = 0;
  private scheduledUs = Infinity;
  private token = 0;
  /**
   * Runs queued in the engine and not yet fallen due, superseded ones included: (time, token,
   * index) flat, in the engine's order, from `pendingHead` to `pendingTail`. The array keeps its
   * length (no splice per run: a splice made an array of what it removed and left-trimmed the
   * store, which the next push then grew again).
   */
  private readonly pending: number[] = [];
  private pendingHead = 0;
  private pendingTail = 0;

  constructor(
    private readonly sim: Simulation,
    firstUs: number,
    private readonly gapUs: () => number,
    private readonly run: (index: number) => void,
    private readonly dueUs: () => number,
    private readonly everyRun: boolean,
  ) {
    this.lastAtUs = firstUs;
    this.push(firstUs, 0);
  }

  /** Schedules the first run at or after the due time (now when every run is kept). */
  plan(): void {
    const now = this.sim.nowUs;
    const due = this.everyRun ? now : Math.max(now, this.dueUs());
    if (due === Infinity) return;
    this.dropBefore(now);
    while (this.lastAtUs < due) this.draw();
    let i = this.head;
    while (this.atUs[i] < due) i++;
    const nextAtUs = this.atUs[i];
    const nextIndex = this.index[i];
    if (nextAtUs >= this.scheduledUs && this.scheduledUs >= now) return;
    this.scheduledUs = nextAtUs;
    this.schedule(nextAtUs, ++this.token, nextIndex);
  }

  /**
   * Queues a run (`token` the plan's): one event of the shared callback `due`, its run noted in
   * `pending` at its place in the order the engine keeps (time, then scheduling), so that each
   * event takes the first of them (no closure per plan: a Sentinel plans after every reply).
   */
  private schedule(atUs: number, token: number, index: number): void {
    const p = this.pending;
    const head = this.pendingHead;
    let i = this.pendingTail;
    this.pendingTail = i + 3;
    // After every run due no later, as the engine's queue keeps same-time events in order.
    while (i > head && p[i - 3] > atUs) {
      p[i] = p[i - 3];
      p[i + 1] = p[i - 2];
      p[i + 2] = p[i - 1];
      i -= 3;
    }
    p[i] = atUs;
    p[i + 1] = token;
    p[i + 2] = index;
    this.sim.scheduleAt(atUs, this.due);
  }

  /** An event of this timer fell due: the first pending run, unless a later plan superseded it. */
  private readonly due = (): void => {
    const p = this.pending;
    const head = this.pendingHead;
    const nextAtUs = p[head];
    const token = p[head + 1];
    const nextIndex = p[head + 2];
    this.takePending();
    if (token !== this.token) return;
    this.scheduledUs = Infinity;
    this.dropBefore(nextAtUs);
    if (this.head < this.tail) this.head++;
    if (this.head === this.tail) this.draw();
    this.run(nextIndex);
    this.plan();
  };

  /** Drops the first pending run; an emptied list starts again at 0, a long-drained head is cut off. */
  private takePending(): void {
    const head = this.pendingHead + 3;
    if (head === this.pendingTail) {
      this.pendingHead = 0;
      this.pendingTail = 0;
    } else if (head >= 192) {
      const p = this.pending;
      p.copyWithin(0, head, this.pendingTail);
      this.pendingTail -= head;
      this.pendingHead = 0;
    } else this.pendingHead = head;
  }

  /** The time of the first run from now on whose index satisfies `test` (drawing ahead). */
  firstRunWhere(test: (index: number) => boolean): number {
    const now = this.sim.nowUs;
    for (let i = this.head; ; i++) {
      if (i >= this.tail) this.draw();
      if (this.atUs[i] >= now && test(this.index[i])) return this.atUs[i];
    }
  }

  /** Forgets the drawn runs before `us`. */
  private dropBefore(us: number): void {
    while (this.head < this.tail && this.atUs[this.head] < us) this.head++;
    if (this.head === this.tail) {
      this.head = 0;
      this.tail = 0;
    } else if (this.head >= 64) {
      // Moved down in place (what is left is the few runs drawn ahead): the arrays keep their
      // length (a splice made an array of what it removed and shortened them, which the next
      // draws grew again).
      this.atUs.copyWithin(0, this.head, this.tail);
      this.index.copyWithin(0, this.head, this.tail);
      this.tail -= this.head;
      this.head = 0;
    }
  }

  private draw(): void {
    this.lastAtUs += this.gapUs();
    this.lastIndex++;
    this.push(this.lastAtUs, this.lastIndex);
  }

  private push(atUs: number, index: number): void {
    this.atUs[this.tail] = atUs;
    this.index[this.tail] = index;
    this.tail++;
  }
}
