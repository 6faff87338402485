/**
 * Load on the clients: open-loop arrivals (a Poisson stream per client, the flash-sale crowd
 * that does not wait for answers), closed-loop users (each waits for its answer, thinks,
 * and asks again), or a script of requests at fixed instants (one lock at one instant). Each client queues requests for its worker threads; a worker runs the
 * request flow. Arrivals and users live outside the clients' process groups: a GC pause
 * stops the workers, not the shoppers.
 */
import { sample } from '../engine/distribution.js';
import type { ProcessGenerator } from '../engine/process.js';
import type { RandomStream } from '../engine/random.js';
import { Signal } from '../engine/signal.js';
import type { Simulation } from '../engine/simulation.js';
import type { Micros } from '../engine/time.js';
import type { RequestOutcome } from '../history/operation.js';
import type { WorkloadSpec } from '../spec/workload.js';
import type { ClientHost, ThreadContext } from '../world/client-host.js';
import type { Effect, EffectProgram } from '../world/effects.js';
import { lockKeyOf } from '../variants/lock-key.js';
import { RequestFlow, type FlowSettings, type RequestInfo } from './request-flow.js';

interface PendingRequest extends RequestInfo {
  client: ClientHost;
  /**
   * Fired with the outcome, or null when the request was lost with its client; made only for
   * a closed-loop user, who waits for it (null: nobody waits, as for open arrivals).
   */
  done: Signal<RequestOutcome | null> | null;
  /** A scripted cart (workload.requests[].skus): the SKUs its multi-lock takes, in order. */
  cart?: number[];
}

interface ClientState {
  client: ClientHost;
  /**
   * The client library's instance id (Redisson: ServiceManager.id = UUID.randomUUID(), one per
   * Redisson instance): a restarted process gets a new one, so it never re-enters a lock its
   * previous incarnation left behind.
   */
  uuid: string;
  queue: PendingRequest[];
  idleWorkers: Signal<true>[];
  /**
   * Requests a worker is serving right now, in the order they started (at most one per
   * worker: an array with in-place removal allocates nothing per request, a Set did).
   */
  serving: PendingRequest[];
}

export class Workload {
  private nextRequest = 1;
  private readonly states: ClientState[];
  private readonly skuRng: RandomStream;
  private readonly resubmitRng: RandomStream;
  private readonly modeRng: RandomStream | null;
  private readonly lockKeys = new Map<number, string>();

  constructor(
    private readonly sim: Simulation,
    private readonly spec: WorkloadSpec,
    clients: ClientHost[],
    private readonly skus: readonly number[],
    private readonly flow: FlowSettings,
    private readonly arrivalsEndUs: Micros,
  ) {
    this.states = clients.map((client) => ({
      client,
      uuid: instanceId(sim, client),
      queue: [],
      idleWorkers: [],
      serving: [],
    }));
    this.skuRng = sim.random.fork('workload/sku');
    this.resubmitRng = sim.random.fork('workload/resubmit');
    // Forked only when there are readers to draw, so a workload without them draws as before.
    this.modeRng = spec.readShare > 0 ? sim.random.fork('workload/mode') : null;
  }

  /** Requests arrived but not finished (queued or being served). */
  get inFlight(): number {
    let n = 0;
    for (const s of this.states) n += s.queue.length + s.serving.length;
    return n;
  }

  start(): void {
    for (const state of this.states) this.startWorkers(state.client);
    const arrival = this.spec.arrival;
    if (arrival.kind === 'open') {
      const perClientRate = arrival.ratePerS / this.states.length;
      for (const state of this.states) {
        // Where a process `<client>/arrivals` would start: the same queue item at the same instant.
        const arrivals = new OpenArrivals(this.sim, this.sim.random.fork(`${state.client.name}/arrivals`), perClientRate, this.arrivalsEndUs, () => this.submit(state));
        this.sim.schedule(0, arrivals.next);
      }
    } else if (arrival.kind === 'closed') {
      for (let u = 0; u < arrival.users; u++) {
        const state = this.states[u % this.states.length];
        this.sim.spawn(`user-${u + 1}`, this.closedUser(state, u + 1));
      }
    } else {
      // Draws nothing: the script says when, where and which SKU.
      for (const r of arrival.requests) {
        const state = this.states[r.client - 1];
        this.sim.scheduleAt(r.atUs, () => this.submit(state, null, r.sku, false, r.cart, r.mode));
      }
    }
  }

  /** (Re)starts the worker threads of a client, e.g. after a restart. */
  startWorkers(client: ClientHost): void {
    const state = this.stateOf(client);
    state.uuid = instanceId(this.sim, client);
    state.idleWorkers = [];
    for (let w = 1; w <= this.spec.workersPerClient; w++) {
      const thread: ThreadContext = {
        name: `${client.name}/w${w}`,
        rng: this.sim.random.fork(`${client.name}/w${w}`),
        requestTag: '',
      };
      // The worker is itself an effect program: one interpreter (ClientHost.run) for the
      // thread's whole life, not a new one per request.
      client.startThread(thread, client.run(this.worker(state, thread, w), thread));
    }
  }

  /** A client died: what it had queued or in service is lost (the history says: unknown). */
  clientCrashed(client: ClientHost): void {
    const state = this.stateOf(client);
    const lost = [...state.queue, ...state.serving];
    state.queue = [];
    state.serving = [];
    state.idleWorkers = [];
    for (const req of lost) {
      this.flow.recorder.recordRequest(client.name, 'info', req.id, req.sku, req.qty, undefined);
      req.done?.fire(null);
    }
  }

  /** The lock key of a SKU, made once per SKU rather than per request. */
  private lockKey(sku: number): string {
    let key = this.lockKeys.get(sku);
    if (key === undefined) {
      key = lockKeyOf(sku);
      this.lockKeys.set(sku, key);
    }
    return key;
  }

  private stateOf(client: ClientHost): ClientState {
    const state = this.states.find((s) => s.client === client);
    if (!state) throw new Error(`unknown client ${client.name}`);
    return state;
  }

  private *closedUser(state: ClientState, user: number): ProcessGenerator<void> {
    if (this.spec.arrival.kind !== 'closed') return;
    const think = this.spec.arrival.think;
    const rng = this.sim.random.fork(`user-${user}`);
    // Users start spread over one think time so they do not arrive in lockstep.
    yield sample(think, rng);
    while (this.sim.nowUs < this.arrivalsEndUs) {
      const req = this.submit(state, null, null, true);
      yield req.done as Signal<RequestOutcome | null>;
      yield sample(think, rng);
    }
  }

  private submit(
    state: ClientState,
    copyOf: { sku: number; orderKey: string; cart?: number[]; mode: 'read' | 'write' | undefined } | null = null,
    scriptedSku: number | null = null,
    awaited = false,
    scriptedCart?: number[],
    scriptedMode: 'read' | 'write' | undefined = undefined,
  ): PendingRequest {
    const cart = copyOf ? copyOf.cart : scriptedCart;
    const sku = copyOf ? copyOf.sku : (scriptedSku ?? this.skus[this.skuRng.int(0, this.skus.length - 1)]);
    // A copy keeps its original's side; a generated request is a reader with the read share's chance.
    const mode = copyOf ? copyOf.mode : scriptedMode ?? (this.modeRng !== null ? (this.modeRng.next() < this.spec.readShare ? 'read' : 'write') : undefined);
    const n = this.nextRequest++;
    const req: PendingRequest = {
      id: `r${n}`,
      sku,
      qty: this.spec.qty,
      orderKey: copyOf ? copyOf.orderKey : `o${n}`,
      client: state.client,
      done: awaited ? new Signal() : null,
      ...(cart === undefined ? {} : { cart }),
      ...(mode !== undefined ? { mode } : {}),
    };
    if (copyOf === null && this.spec.resubmitProbability > 0 && this.resubmitRng.next() < this.spec.resubmitProbability) {
      // The shopper (or a gateway retry) sends the same order again a little later.
      const delayUs = Math.max(1, Math.round(sample(this.spec.resubmitAfter, this.resubmitRng)));
      const original = { sku, orderKey: req.orderKey, mode, ...(cart === undefined ? {} : { cart }) };
      this.sim.schedule(delayUs, () => this.submit(state, original));
    }
    this.flow.recorder.recordRequest(state.client.name, 'invoke', req.id, sku, req.qty, undefined);
    if (!state.client.up) return this.reject(req, 'unavailable');
    if (state.queue.length >= this.spec.queueLimit) return this.reject(req, 'overloaded');
    state.queue.push(req);
    state.idleWorkers.shift()?.fire(true);
    return req;
  }

  /** Turned away on arrival. */
  private reject(req: PendingRequest, outcome: RequestOutcome): PendingRequest {
    this.flow.recorder.recordRequest(req.client.name, 'fail', req.id, req.sku, req.qty, outcome);
    req.done?.fire(outcome);
    return req;
  }

  private worker(state: ClientState, thread: ThreadContext, workerIndex: number): EffectProgram<void> {
    return new WorkerProgram(state, thread, workerIndex, this.flow, (sku) => this.lockKey(sku));
  }
}

/**
 * A worker thread's life as one effect program (ClientHost.run interprets it): take the next
 * request from the client's queue, or wait idle for one; serve it (RequestFlow); record its
 * end and answer the shopper. A state machine rather than a generator, so that every effect
 * of a request reaches the interpreter through plain calls (see RequestFlow); the result
 * object it returns is one object set anew each time, as the interpreter reads it at once.
 */
class WorkerProgram implements Generator<Effect, void, unknown> {
  private readonly client: ClientHost;
  private readonly incarnation: number;
  private readonly flow: RequestFlow;
  /** The request being served (null: between requests). */
  private serving: PendingRequest | null = null;
  /** What wakes this worker from an idle wait (submit fires it after taking it off idleWorkers). */
  private readonly wake = new Signal<true>('work');
  /** The effect of every idle wait of this worker (read at once). */
  private readonly idle: { kind: 'wait'; signal: Signal<unknown> } = { kind: 'wait', signal: this.wake };
  /** Thread ids as a JVM would number pool threads; part of Redisson's lock owner. */
  private readonly threadOwner: string;
  private readonly step: { done: boolean; value: unknown } = { done: false, value: undefined };

  constructor(
    private readonly state: ClientState,
    private readonly thread: ThreadContext,
    workerIndex: number,
    private readonly settings: FlowSettings,
    private readonly lockKey: (sku: number) => string,
  ) {
    this.client = state.client;
    this.incarnation = state.client.incarnation;
    this.flow = new RequestFlow(settings, thread.name);
    this.threadOwner = `${state.uuid}:${workerIndex + 56}`;
  }

  next(input?: unknown): IteratorResult<Effect, void> {
    const { state, flow } = this;
    for (;;) {
      const req = this.serving;
      if (req !== null) {
        const effect = flow.next(input);
        if (effect !== null) return this.yielding(effect);
        this.serving = null;
        if (this.client.incarnation !== this.incarnation) return this.return();
        removeServed(state.serving, req);
        const outcome = flow.outcome;
        this.settings.recorder.recordRequest(this.client.name, outcome === 'ordered' ? 'ok' : 'fail', req.id, req.sku, req.qty, outcome);
        req.done?.fire(outcome);
      }
      const next = state.queue.shift();
      if (next === undefined) {
        // The worker's one wake-up signal, fired when it was taken off idleWorkers, is armed
        // again: no signal per idle wait.
        const wake = this.wake;
        wake.rearm();
        state.idleWorkers.push(wake);
        return this.yielding(this.idle);
      }
      state.serving.push(next);
      this.thread.requestTag = next.id;
      flow.start(next, {
        key: this.lockKey(next.sku),
        ...(next.cart === undefined ? {} : { keys: next.cart.map((sku) => this.lockKey(sku)) }),
        // Unique per acquisition, like a UUID, without drawing from any random stream.
        token: `${state.uuid}:${next.id}`,
        threadOwner: this.threadOwner,
        leaseMs: null,
        fence: null,
        ...(next.mode !== undefined ? { mode: next.mode } : {}),
      });
      this.serving = next;
      input = undefined;
    }
  }

  private yielding(effect: Effect): IteratorResult<Effect, void> {
    this.step.value = effect;
    return this.step as IteratorResult<Effect, void>;
  }

  return(): IteratorResult<Effect, void> {
    this.serving = null;
    return { done: true, value: undefined };
  }

  throw(err: unknown): IteratorResult<Effect, void> {
    this.serving = null;
    throw err;
  }

  [Symbol.iterator](): this {
    return this;
  }
}

/**
 * One client's open-loop arrivals (a Poisson stream): each gap is drawn when the previous
 * arrival is submitted, and the arrival is a queue callback rather than a process's wake-up
 * (the same queue items at the same instants, without a generator resumed per arrival).
 */
class OpenArrivals {
  private readonly meanGapUs: number;
  private started = false;

  constructor(
    private readonly sim: Simulation,
    private readonly rng: RandomStream,
    ratePerS: number,
    private readonly endUs: Micros,
    private readonly submit: () => void,
  ) {
    this.meanGapUs = 1_000_000 / ratePerS;
  }

  /** The first call schedules the first arrival; each later call is an arrival. */
  readonly next = (): void => {
    if (this.started) {
      if (this.sim.nowUs >= this.endUs) return;
      this.submit();
    }
    this.started = true;
    this.sim.schedule(Math.max(1, Math.round(this.rng.exponential(this.meanGapUs))), this.next);
  };
}

/** Takes a finished request out of `serving`, keeping the others in order. */
function removeServed(serving: PendingRequest[], req: PendingRequest): void {
  const i = serving.indexOf(req);
  if (i < 0) return;
  for (let j = i + 1; j < serving.length; j++) serving[j - 1] = serving[j];
  serving.pop();
}

/** A fresh instance id for each incarnation of a client process (the first keeps its stream). */
function instanceId(sim: Simulation, client: ClientHost): string {
  const stream = client.incarnation === 0 ? `${client.name}/uuid` : `${client.name}/uuid/${client.incarnation}`;
  return sim.random.fork(stream).hexId();
}
