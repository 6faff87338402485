/**
 * Orders the events that fall due at one simulated instant. By default the queue runs them in
 * the order they were scheduled (FIFO by sequence number, event-queue.ts), which is one of the
 * orders a real system could take at that microsecond. A policy chooses another: the
 * simulation then groups the due events into threads and, at each step, runs the next event of
 * the thread with the highest priority (PCT's scheduler, Burckhardt et al., "A Randomized
 * Scheduler with Probabilistic Guarantees of Finding Bugs", ASPLOS 2010; pct.ts).
 *
 * A thread is what PCT calls one: a sequence of events that stays in its own order. Here it
 * is a process (a client worker, a watchdog), or a chain of callbacks: a callback scheduled
 * while an event runs belongs to that event's thread (a command's delivery, the server's
 * reply and the replication it causes stay in the thread of the worker that sent it), and one
 * scheduled outside any event (a fault placed at setup, a node's timer started with the
 * world) begins a thread of its own. Events of different threads at one instant have no
 * cause between them, so any order of them is one the world could take; events of one thread
 * keep theirs. Time is never reordered: only events of the same instant are.
 */

/** A PCT thread: its priority is the policy's (higher runs first). */
export class EventThread {
  priority = 0;
  constructor(readonly id: number) {}
}

/** What chooses the order of same-instant events (the simulation asks it nothing else). */
export interface SameInstantPolicy {
  /** A thread appeared (the first event of a process, or a callback scheduled outside any event): set its priority. */
  started(thread: EventThread): void;
  /** The `step`-th event of the run (1-based; events that ran, not stale wake-ups) just ran on `thread`. */
  stepped(step: number, thread: EventThread): void;
}

/** A callback queued under the thread that scheduled it (only in a simulation with a policy). */
export class ThreadedCallback {
  constructor(
    readonly run: () => void,
    readonly thread: EventThread,
  ) {}
}

interface ReadyItem {
  item: unknown;
  tag: number;
  /** Arrival order among the ready items: with equal priorities the earliest runs (the FIFO order). */
  order: number;
}

/** One thread's due items, in their order. */
class ThreadSlot {
  readonly items: ReadyItem[] = [];
  head = 0;
  inHeap = false;
  constructor(readonly thread: EventThread) {}

  get empty(): boolean {
    return this.head === this.items.length;
  }

  first(): ReadyItem {
    return this.items[this.head];
  }

  shift(): ReadyItem {
    const it = this.items[this.head++];
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    }
    return it;
  }
}

/**
 * The events due at the current instant, by thread: a max-heap of threads with due items by
 * (priority, then the arrival order of their first item), so the next event is found in
 * O(log threads) however many threads share the instant.
 */
export class ReadySet {
  private readonly slots = new Map<EventThread, ThreadSlot>();
  private readonly heap: ThreadSlot[] = [];
  private nextOrder = 0;
  size = 0;

  add(thread: EventThread, item: unknown, tag: number): void {
    let slot = this.slots.get(thread);
    if (slot === undefined) {
      slot = new ThreadSlot(thread);
      this.slots.set(thread, slot);
    }
    slot.items.push({ item, tag, order: this.nextOrder++ });
    this.size++;
    if (!slot.inHeap) this.push(slot);
  }

  /** The thread whose next item runs next (null: nothing is due). */
  peekThread(): EventThread | null {
    return this.heap.length === 0 ? null : this.heap[0].thread;
  }

  /**
   * Takes the next item of the top thread out of the heap; its thread stays out until
   * `settle` puts it back with its priority after the step.
   */
  take(): { thread: EventThread; item: unknown; tag: number } {
    const slot = this.pop();
    const it = slot.shift();
    this.size--;
    this.taken = slot;
    return { thread: slot.thread, item: it.item, tag: it.tag };
  }

  private taken: ThreadSlot | null = null;

  /** After the taken item ran (and the policy may have changed its thread's priority). */
  settle(): void {
    const slot = this.taken;
    this.taken = null;
    if (slot === null) return;
    if (slot.empty) this.slots.delete(slot.thread);
    else if (!slot.inHeap) this.push(slot);
  }

  private before(a: ThreadSlot, b: ThreadSlot): boolean {
    const pa = a.thread.priority;
    const pb = b.thread.priority;
    return pa > pb || (pa === pb && a.first().order < b.first().order);
  }

  private push(slot: ThreadSlot): void {
    const heap = this.heap;
    slot.inHeap = true;
    let i = heap.length;
    heap.push(slot);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(slot, heap[parent])) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = slot;
  }

  private pop(): ThreadSlot {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop() as ThreadSlot;
    top.inHeap = false;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        const child = right < heap.length && this.before(heap[right], heap[left]) ? right : left;
        if (!this.before(heap[child], last)) break;
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}
