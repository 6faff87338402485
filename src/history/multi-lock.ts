/**
 * How a multi-lock's acquire invocation names its keys (the LockOp's `detail`): written by the
 * request flow (workload/request-state.ts), read by the partial-holds observer
 * (checker/observers/partial-holds.ts), in one place so the two cannot drift apart.
 */
const PREFIX = 'multi-lock of ';

/** `multi-lock of <n>: <key>, <key>, ...`. */
export const multiLockDetail = (keys: readonly string[]): string => `${PREFIX}${keys.length}: ${keys.join(', ')}`;

/** The keys an acquire invocation's detail names, or null when it is no multi-lock's. */
export function multiLockKeys(detail: string | undefined): string[] | null {
  if (detail === undefined || !detail.startsWith(PREFIX)) return null;
  const colon = detail.indexOf(': ');
  return colon < 0 ? null : detail.slice(colon + 2).split(', ');
}
