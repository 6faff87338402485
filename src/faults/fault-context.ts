/** What a fault may touch: the world, the workload (to restart workers) and the history. */
import type { ClientWorld, World } from '../world/world.js';
import type { ClientHost } from '../world/client-host.js';

/** `W`: what the faults may touch; a real run's client faults get the clients' part only (ClientWorld). */
export interface FaultContext<W extends ClientWorld = World> {
  world: W;
  /** Records a fault phase in the history as the nemesis. */
  record(fault: string, phase: 'start' | 'end' | 'event', target: string, detail: string): void;
  /**
   * Registers what undoes a fault: it runs once, after `afterUs` (null: never on its own)
   * or when the run heals before the final drain, whichever comes first.
   */
  healAfter(afterUs: number | null, heal: () => void): void;
  /** kill -9 of a client process, with its consequences for the workload. */
  crashClient(client: ClientHost, detail: string): void;
  restartClient(client: ClientHost): void;
  /** Arms a crash at a named crash point of a client's code, from `fromUs` on (first hit wins). */
  armCrashPoint(client: ClientHost, point: string, fromUs: number, onCrash: () => void): void;
}
