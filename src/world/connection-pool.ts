/**
 * A client-side connection pool (HikariCP-like): a fixed number of connections; a thread
 * that finds none free waits in FIFO order. It lives and dies with its client process, so a
 * kill -9 cannot leak connections into other clients' pools.
 */
import { Signal } from '../engine/signal.js';

export class ConnectionPool {
  private inUse = 0;
  private readonly waiters: Signal<true>[] = [];

  constructor(readonly size: number) {}

  /** Something to yield until a connection is ours, or null when one was free at once. */
  acquire(): Signal<true> | null {
    if (this.inUse < this.size) {
      this.inUse++;
      return null;
    }
    const turn = new Signal<true>('connection');
    this.waiters.push(turn);
    return turn;
  }

  release(): void {
    const next = this.waiters.shift();
    // Hand the connection straight to the next waiter; the count stays the same.
    if (next) next.fire(true);
    else this.inUse--;
  }
}
