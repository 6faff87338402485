/**
 * The simulation: one clock, one event queue, the processes and the named random streams.
 * It knows nothing of Redis, clients or locks; the world is built on top of it.
 */
import { EventQueue } from './event-queue.js';
import { DEFAULT_MAX_EVENTS_PER_INSTANT, NoProgressError } from './no-progress.js';
import { Process, ProcessGroup, type ProcessGenerator } from './process.js';
import { RandomStreams } from './random.js';
import { EventThread, ReadySet, ThreadedCallback, type SameInstantPolicy } from './same-instant.js';
import type { Micros } from './time.js';

type Callback = () => void;
/**
 * Queue items: a process with a tag, or a callback. A tag >= 0 wakes the process if it still
 * waits with that token; a tag < 0 is the deadline of its bounded wait with token -1 - tag.
 * (An object per deadline used to say which: one allocation per command wait.) With a
 * same-instant policy a callback is queued as a ThreadedCallback, which only runOrdered pops.
 */
type QueueItem = Process<any> | Callback;

const deadlineTag = (token: number): number => -1 - token;

export class Simulation {
  nowUs: Micros = 0;
  /** Events processed so far; the benchmark divides this by wall time. */
  eventCount = 0;
  /** The process whose generator is executing right now, if any. */
  current: Process<any> | null = null;
  readonly random: RandomStreams;
  /** More events than this at one simulated instant stop the run (NoProgressError). */
  maxEventsPerInstant = DEFAULT_MAX_EVENTS_PER_INSTANT;
  private readonly queue = new EventQueue<QueueItem>();
  private stopped = false;
  /** The instant the last event ran at, and how many ran there (the no-progress guard). */
  private instantUs = -1;
  private eventsAtInstant = 0;
  /** With a same-instant policy (same-instant.ts): the threads and the events due now; null by default. */
  private readonly ordered: Ordered | null;

  /**
   * `order`: a policy for the order of events due at one instant (same-instant.ts). Without
   * one (the default) they run in the order they were scheduled, by the loop in `run`, which
   * the policy's code never touches.
   */
  constructor(seed: number | string, order: SameInstantPolicy | null = null) {
    this.random = new RandomStreams(seed);
    this.ordered = order === null ? null : new Ordered(order);
  }

  spawn<R>(name: string, gen: ProcessGenerator<R>, group: ProcessGroup | null = null): Process<R> {
    const p = new Process<R>(this, name, gen, group);
    this.wakeAt(this.nowUs, p, p.token);
    return p;
  }

  /**
   * A process that begins inside the current event, with no start event of its own: world
   * machinery that turns out to need a process (a database statement that must wait for a
   * lock) continues in one from where it stands.
   */
  startNow<R>(name: string, gen: ProcessGenerator<R>): Process<R> {
    const p = new Process<R>(this, name, gen, null);
    p.step();
    return p;
  }

  group(name: string): ProcessGroup {
    return new ProcessGroup(name, this);
  }

  /** Runs `callback` after `delayUs`. Callbacks are world machinery (message delivery, node timers). */
  schedule(delayUs: Micros, callback: Callback): void {
    if (!(delayUs >= 0)) throw new Error(`cannot schedule ${delayUs}us into the past`);
    if (this.ordered !== null) this.queue.push(this.nowUs + delayUs, this.ordered.threaded(callback) as unknown as QueueItem, 0);
    else this.queue.push(this.nowUs + delayUs, callback, 0);
  }

  scheduleAt(timeUs: Micros, callback: Callback): void {
    if (this.ordered !== null) this.queue.push(Math.max(timeUs, this.nowUs), this.ordered.threaded(callback) as unknown as QueueItem, 0);
    else this.queue.push(Math.max(timeUs, this.nowUs), callback, 0);
  }

  /** @internal */
  wakeAt(timeUs: Micros, process: Process<any>, token: number): void {
    this.queue.push(timeUs, process, token);
  }

  /** @internal puts back an item a paused group held, due now. */
  requeue(item: unknown, token: number): void {
    // A callback a paused group held (ProcessGroup.hold) goes on in the thread that resumes it.
    if (this.ordered !== null && typeof item === 'function') this.queue.push(this.nowUs, this.ordered.threaded(item as Callback) as unknown as QueueItem, token);
    else this.queue.push(this.nowUs, item as QueueItem, token);
  }

  /** @internal */
  timeoutAfter(delayUs: Micros, process: Process<any>, token: number): void {
    // A bounded wait's deadline: the lane of its delay (a FIFO) keeps it out of the heap.
    this.queue.pushAfter(this.nowUs + delayUs, delayUs, process, deadlineTag(token));
  }

  stop(): void {
    this.stopped = true;
  }

  /** When the next queued event falls due (Infinity: none); a real-time driver sleeps until then. */
  nextEventUs(): Micros {
    if (this.ordered !== null && this.ordered.ready.size > 0) return this.nowUs;
    return this.queue.peekTime();
  }

  /** With a same-instant policy: the threads seen and the events run so far (null without one). */
  orderStats(): { threads: number; steps: number } | null {
    return this.ordered === null ? null : { threads: this.ordered.threads, steps: this.ordered.steps };
  }

  /** Processes events up to and including `untilUs`; the clock ends at `untilUs`. */
  run(untilUs: Micros = Infinity): void {
    if (this.ordered !== null) return this.runOrdered(untilUs, this.ordered);
    const queue = this.queue;
    this.stopped = false;
    while (!this.stopped && queue.size > 0 && queue.peekTime() <= untilUs) {
      const item = queue.pop() as QueueItem;
      this.nowUs = queue.poppedTime;
      this.eventCount++;
      if (this.nowUs !== this.instantUs) {
        this.instantUs = this.nowUs;
        this.eventsAtInstant = 1;
      } else if (++this.eventsAtInstant > this.maxEventsPerInstant) {
        throw new NoProgressError(this.nowUs, this.maxEventsPerInstant, item instanceof Process ? item.name : '');
      }
      const tag = queue.poppedTag;
      // A callback is a function, a process never is: typeof is cheaper than instanceof here.
      if (typeof item === 'function') {
        item();
      } else {
        const token = tag >= 0 ? tag : deadlineTag(tag);
        if (item.done || token !== item.token) continue;
        const group = item.group;
        if (group !== null && group.pauseDepth > 0) {
          // A deadline that passed during a pause is noticed when the thread runs again.
          group.held.push(item, tag);
          continue;
        }
        if (tag >= 0) item.step();
        else item.timeOut(token);
      }
    }
    if (untilUs !== Infinity && !this.stopped && this.nowUs < untilUs) this.nowUs = untilUs;
  }

  /**
   * `run` with a same-instant policy: every event due at the current instant goes into the
   * ready set under its thread, and the policy's priorities pick which runs next; what an event
   * schedules for the same instant joins the set before the next pick. The rest (stale
   * wake-ups, paused groups, the no-progress guard, the clock) is `run`'s.
   */
  private runOrdered(untilUs: Micros, o: Ordered): void {
    const queue = this.queue;
    const ready = o.ready;
    this.stopped = false;
    while (!this.stopped) {
      if (ready.size === 0) {
        if (queue.size === 0 || queue.peekTime() > untilUs) break;
        this.nowUs = queue.peekTime();
      }
      // Everything due now, including what the last event scheduled for this instant.
      while (queue.size > 0 && queue.peekTime() === this.nowUs) {
        const item: unknown = queue.pop();
        const tag = queue.poppedTag;
        this.eventCount++;
        if (this.nowUs !== this.instantUs) {
          this.instantUs = this.nowUs;
          this.eventsAtInstant = 1;
        } else if (++this.eventsAtInstant > this.maxEventsPerInstant) {
          throw new NoProgressError(this.nowUs, this.maxEventsPerInstant, item instanceof Process ? item.name : '');
        }
        if (item instanceof ThreadedCallback) ready.add(item.thread, item, tag);
        else ready.add(o.threadOfProcess(item as Process<any>), item, tag);
      }
      const next = ready.take();
      const item = next.item;
      let ran = false;
      o.running = next.thread;
      if (item instanceof ThreadedCallback) {
        item.run();
        ran = true;
      } else {
        const p = item as Process<any>;
        const tag = next.tag;
        const token = tag >= 0 ? tag : deadlineTag(tag);
        if (!p.done && token === p.token) {
          const group = p.group;
          if (group !== null && group.pauseDepth > 0) group.held.push(p, tag);
          else {
            if (tag >= 0) p.step();
            else p.timeOut(token);
            ran = true;
          }
        }
      }
      o.running = null;
      if (ran) o.policy.stepped(++o.steps, next.thread);
      ready.settle();
    }
    if (untilUs !== Infinity && !this.stopped && this.nowUs < untilUs && ready.size === 0) this.nowUs = untilUs;
  }
}

/** The state of a simulation with a same-instant policy. */
class Ordered {
  readonly ready = new ReadySet();
  /** The thread of the event running now (null: none, e.g. while the world is built). */
  running: EventThread | null = null;
  threads = 0;
  steps = 0;
  private readonly processThreads = new Map<Process<any>, EventThread>();

  constructor(readonly policy: SameInstantPolicy) {}

  private newThread(): EventThread {
    const t = new EventThread(this.threads++);
    this.policy.started(t);
    return t;
  }

  /** A callback scheduled now: in the running event's thread, or a thread of its own. */
  threaded(callback: () => void): ThreadedCallback {
    return new ThreadedCallback(callback, this.running ?? this.newThread());
  }

  threadOfProcess(p: Process<any>): EventThread {
    let t = this.processThreads.get(p);
    if (t === undefined) {
      t = this.newThread();
      this.processThreads.set(p, t);
    }
    return t;
  }
}
