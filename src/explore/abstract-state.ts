/**
 * The abstract state of a run at each instant, read from its history: who holds each lock key
 * on each node (the primary's copy and each replica's, so replication that lags shows), how
 * long each TTL has left in powers of two of milliseconds, which node is the primary, the
 * faults in force, each client's open requests by phase (waiting for a worker or acquiring,
 * holding, releasing) and the last fencing token of each key. The explorer fingerprints it
 * (TLC's habit: 64 bits of a hash of the state's canonical text) to count the distinct states
 * its schedules reached and to merge schedules whose runs went through the same states after
 * their last fault: those are extended once (SAMC, Leesatapornwongsa et al., OSDI 2014, prunes
 * the same way).
 *
 * Symmetry: when the scenario's clients are interchangeable (same configuration, requests
 * drawn by the workload rather than scripted per client, faults that treat them alike), the
 * state is written with clients named by the sorted order of what they do and hold, not by
 * number, so states that differ only by which client is which count once.
 *
 * What this abstraction leaves out (the time to the next arrival, a TTL's exact remainder,
 * bytes in a replication buffer, the random streams' positions) is why merging is a heuristic
 * and the bounded statement says so.
 */
import { createHash } from 'node:crypto';
import type { Operation } from '../history/operation.js';

type Phase = 'waiting' | 'acquiring' | 'holding' | 'releasing';

interface Held {
  holder: string;
  expiresAtUs: number | null;
}

/** 16 hex digits (64 bits) of SHA-256 of the canonical text. */
export function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

const ttlBucket = (expiresAtUs: number | null, nowUs: number): string => {
  if (expiresAtUs === null) return 'no-ttl';
  const ms = Math.max(0, (expiresAtUs - nowUs) / 1000);
  return `2^${Math.ceil(Math.log2(ms + 1))}ms`;
};

export class StateTracker {
  /** Fingerprints of the states after each instant, in time order (consecutive repeats dropped). */
  readonly trajectory: Array<{ atUs: number; state: string }> = [];
  private readonly clientOfRequest = new Map<string, string>();
  private readonly phase = new Map<string, Phase>();
  private readonly held = new Map<string, Held>();
  private readonly fences = new Map<string, number>();
  private readonly faults = new Map<string, number>();
  private primary = '';
  private instantUs = -1;

  constructor(private readonly symmetric: boolean) {}

  observe(op: Operation): void {
    if (op.timeUs !== this.instantUs) {
      if (this.instantUs >= 0) this.snapshot();
      this.instantUs = op.timeUs;
    }
    switch (op.f) {
      case 'setup':
        this.primary = op.primary;
        return;
      case 'request':
        if (op.type === 'invoke') {
          this.clientOfRequest.set(op.request, op.process.split('/')[0]);
          this.phase.set(op.request, 'waiting');
        } else this.phase.delete(op.request);
        return;
      case 'acquire':
        if (!this.phase.has(op.request)) return;
        if (op.type === 'invoke') this.phase.set(op.request, 'acquiring');
        else if (op.type === 'ok') {
          this.phase.set(op.request, 'holding');
          if (op.fence !== undefined) this.fences.set(op.key, op.fence);
        } else this.phase.set(op.request, 'waiting');
        return;
      case 'release':
        if (!this.phase.has(op.request)) return;
        this.phase.set(op.request, op.type === 'invoke' ? 'releasing' : 'waiting');
        return;
      case 'key-state': {
        const at = `${op.node}|${op.key}`;
        if (op.holder === null) this.held.delete(at);
        else this.held.set(at, { holder: op.holder, expiresAtUs: op.expiresAtUs });
        return;
      }
      case 'fault': {
        const what = `${op.fault}@${op.target}`;
        if (op.phase === 'start') this.faults.set(what, (this.faults.get(what) ?? 0) + 1);
        else if (op.phase === 'end') {
          const n = (this.faults.get(what) ?? 0) - 1;
          if (n > 0) this.faults.set(what, n);
          else this.faults.delete(what);
        } else if (op.fault === 'failover') this.primary = op.target;
        return;
      }
      default:
        return;
    }
  }

  /** Ends the last instant; call once after the run. */
  finish(): void {
    if (this.instantUs >= 0) this.snapshot();
    this.instantUs = -1;
  }

  private snapshot(): void {
    const text = this.canonical(this.instantUs);
    const state = fingerprint(text);
    const last = this.trajectory[this.trajectory.length - 1];
    if (last === undefined || last.state !== state) this.trajectory.push({ atUs: this.instantUs, state });
  }

  /** The state as text, clients named by number or, when symmetric, by the order of their descriptions. */
  canonical(nowUs: number): string {
    const perClient = new Map<string, string[]>();
    const facts = (client: string): string[] => {
      let list = perClient.get(client);
      if (list === undefined) {
        list = [];
        perClient.set(client, list);
      }
      return list;
    };
    for (const [request, phase] of this.phase) facts(this.clientOfRequest.get(request) ?? '?').push(`open:${phase}`);
    const global: string[] = [`primary:${this.primary}`];
    for (const [at, h] of this.held) {
      const client = this.clientOfRequest.get(h.holder);
      const fact = `holds:${at}:${ttlBucket(h.expiresAtUs, nowUs)}:${this.phase.get(h.holder) ?? 'done'}`;
      if (client === undefined) global.push(`${fact}:unknown`);
      else facts(client).push(fact);
    }
    for (const [what, n] of this.faults) {
      const target = what.slice(what.indexOf('@') + 1);
      if (target.startsWith('client-')) facts(target).push(`fault:${what.slice(0, what.indexOf('@'))}x${n}`);
      else global.push(`fault:${what}x${n}`);
    }
    for (const [key, fence] of this.fences) global.push(`fence:${key}:${fence}`);
    global.sort();
    const clients = [...perClient].map(([client, list]) => {
      list.sort();
      return this.symmetric ? list.join(',') : `${client}{${list.join(',')}}`;
    });
    clients.sort();
    return `${global.join(';')}|${clients.join('|')}`;
  }
}
