/**
 * A run's critical instants, read from its history as it is recorded: the moments where a
 * fault placed just before or just after can change what happens next. Lock commands sent
 * (an acquire or release begins) and executed (a lock key changes on a server), replies
 * (an acquire or release ends), TTL expiries (every instant a key would expire at, renewed
 * or not), watchdog and refresh ticks, replication deliveries (a key changes on a replica),
 * failover phases (the deciders' events), critical-section entries and exits and the
 * statements inside, and request arrivals. Each names the hosts it concerns, so a fault on
 * one of them is tried there first.
 */
import type { Operation } from '../history/operation.js';

export const INSTANT_KINDS = ['request', 'lock-sent', 'lock-executed', 'lock-reply', 'replication', 'ttl-expiry', 'renewal', 'failover', 'critical-section'] as const;
export type InstantKind = (typeof INSTANT_KINDS)[number];

export interface CriticalInstant {
  atUs: number;
  kind: InstantKind;
  /** Hosts concerned: `client-N`, `redis-N`, and `primary` when the node was the primary then. */
  hosts: string[];
  /** For people: "redis-0 wrote lock:stock:1 for r1". */
  what: string;
}

const clientOf = (process: string): string => process.split('/')[0];

/** Collects the instants of one run: `observe` every operation in history order, then `instants()`. */
export class InstantRecorder {
  private readonly list: CriticalInstant[] = [];
  private readonly clientOfRequest = new Map<string, string>();
  private primary = '';
  private lockNodes = new Set<string>();

  observe(op: Operation): void {
    const add = (kind: InstantKind, hosts: string[], what: string, atUs = op.timeUs): void => {
      this.list.push({ atUs, kind, hosts, what });
    };
    switch (op.f) {
      case 'setup':
        this.primary = op.primary;
        this.lockNodes = new Set(op.lockNodes);
        return;
      case 'request':
        if (op.type === 'invoke') {
          this.clientOfRequest.set(op.request, clientOf(op.process));
          add('request', [clientOf(op.process)], `${op.request} arrives at ${clientOf(op.process)}`);
        }
        return;
      case 'acquire':
      case 'release': {
        const client = clientOf(op.process);
        if (op.type === 'invoke') add('lock-sent', [client], `${op.request} sends its ${op.f} of ${op.key}`);
        else add('lock-reply', [client], `${op.request}'s ${op.f} of ${op.key} ${op.type === 'ok' ? 'succeeds' : op.type === 'fail' ? 'fails' : 'ends unknown'}`);
        if (op.f === 'acquire' && op.type === 'ok') add('critical-section', [client], `${op.request} enters the critical section of ${op.key}`);
        if (op.f === 'release' && op.type === 'invoke') add('critical-section', [client], `${op.request} leaves the critical section of ${op.key}`);
        return;
      }
      case 'read-stock':
      case 'write-stock':
      case 'order':
        add('critical-section', [clientOf(op.process)], `${op.request} ${op.type === 'invoke' ? 'sends' : 'ends'} its ${op.f} of SKU ${op.sku}`);
        return;
      case 'renew':
        add('renewal', [clientOf(op.process)], `${clientOf(op.process)} renews for ${op.request} (${op.type})`);
        return;
      case 'key-state': {
        const onPrimary = op.node === this.primary || this.lockNodes.has(op.node);
        const hosts = onPrimary ? [op.node, 'primary'] : [op.node];
        const by = this.clientOfRequest.get(op.by);
        if (by !== undefined) hosts.push(by);
        const holder = op.holder === null ? 'nobody' : op.holder;
        const holderClient = op.holder === null ? undefined : this.clientOfRequest.get(op.holder);
        if (holderClient !== undefined && holderClient !== by) hosts.push(holderClient);
        const kind: InstantKind = onPrimary && op.cause !== 'sync' ? 'lock-executed' : 'replication';
        add(kind, hosts, `${op.node}: ${op.key} held by ${holder} (${op.cause})`);
        if (op.expiresAtUs !== null) {
          const owner = holderClient === undefined ? [op.node] : [op.node, holderClient];
          add('ttl-expiry', onPrimary ? [...owner, 'primary'] : owner, `${op.key} on ${op.node} would expire (${holder}'s TTL)`, op.expiresAtUs);
        }
        return;
      }
      case 'fault':
        // The deciders' steps (sdown ... rediscover) and a failover's promotion; a fault this
        // run was given starts and ends where it was placed, which is not an instant of the run.
        if (op.phase === 'event') {
          add('failover', [op.target], `${op.fault}: ${op.detail}`);
          if (op.fault === 'failover') this.primary = op.target;
        }
        return;
      default:
        return;
    }
  }

  /** In time order (stable: recording order within an instant). */
  instants(): CriticalInstant[] {
    return [...this.list].sort((a, b) => a.atUs - b.atUs);
  }
}
