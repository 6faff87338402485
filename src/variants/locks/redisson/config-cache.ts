/**
 * A Redisson lock kind's executor settings per variant (executor.ts clientConfig), made on a
 * client process's first use and kept in that process's state under the kind's own name: a
 * restarted process makes them anew, as a new JVM builds its Config.
 */
import { clientStateEffect, type EffectProgram } from '../../../world/effects.js';
import type { LockParams } from '../../lock-protocol.js';
import { clientConfig, type RedissonConfig } from './executor.js';
import { behaviourOf } from './versions.js';

export function configCache(stateName: string): (params: LockParams) => EffectProgram<RedissonConfig> {
  const configs = clientStateEffect(stateName, () => new Map<LockParams, RedissonConfig>());
  return function* configOf(params: LockParams): EffectProgram<RedissonConfig> {
    const made = (yield configs) as Map<LockParams, RedissonConfig>;
    const known = made.get(params);
    if (known) return known;
    const config = yield* clientConfig(params, behaviourOf(params.redissonVersion));
    made.set(params, config);
    return config;
  };
}
