/** A scenario's faults, resolved: the scheduled ones and those drawn from the seed. */
import type { Distribution } from '../engine/distribution.js';
import type { Micros } from '../engine/time.js';

/**
 * How a partition cuts: 'silent' drops what crosses it and tells no one (a switch or link that
 * drops, iptables DROP: connections hang until their endpoints' own timeouts and keepalives
 * notice); 'reject' resets every connection across it and refuses new ones (iptables REJECT
 * --reject-with tcp-reset): both ends hear of it at once. The real backend has the same two.
 */
export const PARTITION_MODES = ['silent', 'reject'] as const;
export type PartitionMode = (typeof PARTITION_MODES)[number];

/** A host on the network: `client-N`, `redis-N`, or `primary` (whichever node is primary then). */
type HostName = string;

export type FaultSpec =
  | { kind: 'gc-pause'; client: number; atUs: Micros; durationUs: Micros }
  | { kind: 'slow-call'; dependency: string; atUs: Micros; durationUs: Micros; latency: Distribution }
  | {
      kind: 'primary-crash';
      atUs: Micros;
      /** The replication stream stops this long before the crash: what it held is lost. */
      replicationStalledUs: Micros;
      /** When the crashed node comes back (null: only when the run heals, at the end). */
      restartAfterUs: Micros | null;
    }
  | { kind: 'crash'; client: number; atUs: Micros; point: string | null; restartAfterUs: Micros | null }
  /** Cuts every path between the hosts in `isolate` and those in `from` (null: everyone else). */
  | { kind: 'partition'; atUs: Micros; durationUs: Micros; isolate: HostName[]; from: HostName[] | null; mode: PartitionMode }
  /** Steps a host's clock by `byUs` (negative: backwards). */
  | { kind: 'clock-jump'; target: HostName; atUs: Micros; byUs: Micros }
  /** A host's clock runs fast (positive ppm) or slow for a while. */
  | { kind: 'clock-drift'; target: HostName; atUs: Micros; durationUs: Micros; ppm: number }
  /** DEBUG SLEEP: the node serves nothing for a while. */
  | { kind: 'redis-pause'; node: HostName; atUs: Micros; durationUs: Micros }
  /** A node dies and comes back `downUs` later, with its data (AOF fsync always) or empty. */
  | { kind: 'redis-restart'; node: HostName; atUs: Micros; downUs: Micros; persistence: 'none' | 'always' }
  /** Extra one-way delay on every path to and from a host. */
  | { kind: 'network-delay'; target: HostName; atUs: Micros; durationUs: Micros; delayUs: Micros }
  /** The database serves every statement `factor` times slower. */
  | { kind: 'db-slow'; atUs: Micros; durationUs: Micros; factor: number };


/**
 * A fault drawn from the seed: occurrences start as a Poisson process of `ratePerS`
 * (suppressed while one is active, so they never overlap), each lasting a draw of
 * `duration`. `template` is the fault with its time and duration left at 0.
 */
export interface RandomFaultSpec {
  template: FaultSpec;
  ratePerS: number;
  duration: Distribution;
}
