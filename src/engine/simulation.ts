/**
 * The simulation: one clock, one event queue, the processes and the named random streams.
 * It knows nothing of Redis, clients or locks; the world is built on top of it.
 */
import { EventQueue } from './event-queue.js';
import { DEFAULT_MAX_EVENTS_PER_INSTANT, NoProgressError } from './no-progress.js';
import { Process, ProcessGroup, type ProcessGenerator } from './process.js';
import { RandomStreams } from './random.js';
import type { Micros } from './time.js';

type Callback = () => void;
/**
 * Queue items: a process with a tag, or a callback. A tag >= 0 wakes the process if it still
 * waits with that token; a tag < 0 is the deadline of its bounded wait with token -1 - tag.
 * (An object per deadline used to say which: one allocation per command wait.)
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

  constructor(seed: number | string) {
    this.random = new RandomStreams(seed);
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
    this.queue.push(this.nowUs + delayUs, callback, 0);
  }

  scheduleAt(timeUs: Micros, callback: Callback): void {
    this.queue.push(Math.max(timeUs, this.nowUs), callback, 0);
  }

  /** @internal */
  wakeAt(timeUs: Micros, process: Process<any>, token: number): void {
    this.queue.push(timeUs, process, token);
  }

  /** @internal puts back an item a paused group held, due now. */
  requeue(item: unknown, token: number): void {
    this.queue.push(this.nowUs, item as QueueItem, token);
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
    return this.queue.peekTime();
  }

  /** Processes events up to and including `untilUs`; the clock ends at `untilUs`. */
  run(untilUs: Micros = Infinity): void {
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
}
