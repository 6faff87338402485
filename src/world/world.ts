/** Everything a run simulates, in one place for faults and the runner. */
import type { Simulation } from '../engine/simulation.js';
import type { ClientHost } from './client-host.js';
import type { Database } from './database.js';
import type { Dependency } from './dependency.js';
import type { Fabric } from './network.js';
import type { RedisDeployment } from './redis/deployment.js';
import type { SimTransport } from './sim-transport.js';

/** What client faults touch: the client processes, the database and the dependencies (a real run has these too). */
export interface ClientWorld {
  sim: Simulation;
  database: Database;
  dependencies: ReadonlyMap<string, Dependency>;
  clients: readonly ClientHost[];
}

export interface World extends ClientWorld {
  fabric: Fabric;
  redis: RedisDeployment;
  clients: readonly ClientHost<SimTransport>[];
}
