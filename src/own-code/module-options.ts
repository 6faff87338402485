/** What the factory of a user lock module receives as `options` (contract.ts OwnLockOptions). */
import type { VariantSpec } from '../spec/variant.js';
import type { OwnLockOptions } from './contract.js';

export function factoryOptions(variant: VariantSpec, commandTimeoutUs: number): OwnLockOptions {
  return {
    ...(variant.lockModule?.options ?? {}),
    leaseMs: variant.leaseMs,
    waitMs: variant.waitMs,
    retryIntervalMs: variant.retryIntervalMs,
    commandTimeoutMs: Math.round(commandTimeoutUs / 1000),
    // A semaphore module's limit (the variant's `permits`); null: a mutex.
    permits: variant.permits ?? null,
  };
}
