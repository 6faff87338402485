/** Everything a run simulates, in one place for faults and the runner. */
import type { Simulation } from '../engine/simulation.js';
import type { ClientHost } from './client-host.js';
import type { Database } from './database.js';
import type { Dependency } from './dependency.js';
import type { Fabric } from './network.js';
import type { RedisDeployment } from './redis/deployment.js';

export interface World {
  sim: Simulation;
  fabric: Fabric;
  redis: RedisDeployment;
  database: Database;
  dependencies: ReadonlyMap<string, Dependency>;
  clients: readonly ClientHost[];
}
