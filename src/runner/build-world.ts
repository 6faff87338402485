/** Builds the simulated world of one run from a resolved scenario. */
import type { Simulation } from '../engine/simulation.js';
import type { Scenario } from '../spec/scenario.js';
import type { VariantSpec } from '../spec/variant.js';
import { ClientHost, type ClientHooks } from '../world/client-host.js';
import { CLIENT_MODELS, poolSizeOf } from '../world/client-model.js';
import { SimTransport } from '../world/sim-transport.js';
import { Database } from '../world/database.js';
import { Dependency } from '../world/dependency.js';
import { Fabric } from '../world/network.js';
import { RedisDeployment } from '../world/redis/deployment.js';
import type { UserScriptRunner } from '../world/redis/node.js';
import type { World } from '../world/world.js';

/**
 * Builds the world; the clients run on the variant's client model (a lock module's own client:
 * ioredis's). `userScripts` runs scripts other than the built-in ones on every Redis node: the
 * own-code Lua VM for a run of user code, null otherwise.
 */
export function buildWorld(sim: Simulation, scenario: Scenario, hooks: ClientHooks, variant: Pick<VariantSpec, 'client' | 'clientPool'>, userScripts: UserScriptRunner | null): World {
  const model = CLIENT_MODELS[variant.client ?? 'ioredis'];
  const fabric = new Fabric();
  const r = scenario.redis;
  const redis = new RedisDeployment(
    sim,
    {
      topology: r.topology,
      server: r.server,
      replicas: r.replicas,
      masters: r.masters,
      replicationBacklog: r.replicationBacklog,
      replicationLag: r.replicationLag,
      replTimeoutUs: r.replTimeoutUs,
      downAfterUs: r.downAfterUs,
      nodeTimeoutUs: r.nodeTimeoutUs,
      sentinels: r.sentinels,
      quorum: r.quorum,
      failoverTimeoutUs: r.failoverTimeoutUs,
      deciderLatency: scenario.network.redisLatency,
      minReplicasToWrite: r.minReplicasToWrite,
      minReplicasMaxLagUs: r.minReplicasMaxLagUs,
    },
    fabric,
    userScripts,
  );
  const database = new Database({ statementTime: scenario.database.statementTime }, sim.random.fork('database'));
  for (const row of scenario.stock) database.addStock(row.sku, row.available);
  const dependencies = new Map(
    scenario.dependencies.map((d) => [d.name, new Dependency(d.name, d.latency, sim.random.fork(`dependency/${d.name}`))]),
  );
  const clients: ClientHost<SimTransport>[] = [];
  for (let i = 1; i <= scenario.workload.clients; i++) {
    clients.push(
      new ClientHost(
        `client-${i}`,
        sim,
        {
          poolSize: scenario.workload.poolPerClient,
          commandTimeoutUs: scenario.network.commandTimeoutUs,
          replicated: r.topology === 'sentinel' || r.topology === 'cluster',
          redisPoolSize: poolSizeOf(model, variant.clientPool),
        },
        (host) => new SimTransport(host, sim, fabric, scenario.network.redisLatency, redis.primary, redis.masters, model),
        database,
        dependencies,
        hooks,
      ),
    );
  }
  return { sim, fabric, redis, database, dependencies, clients };
}
