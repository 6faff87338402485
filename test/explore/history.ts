/** Hand-written histories for the explore tests: [time in us, operation] entries, numbered as the recorder does. */
import type { NewOperation, Operation } from '../../src/history/operation.js';

export { history } from '../checker/histories.js';

export const K = 'lock:stock:1';

export const setup = (primary = 'redis-0'): NewOperation => ({ process: 'setup', type: 'info', f: 'setup', stock: [{ sku: 1, available: 10 }], primary, lockNodes: [], quorum: 1, durationUs: 10_000_000 });
export const request = (type: Operation['type'], id: string, client: string): NewOperation => ({ process: client, type, f: 'request', request: id, sku: 1, qty: 1 }) as NewOperation;
export const lock = (f: 'acquire' | 'release', type: Operation['type'], id: string, thread: string, fence?: number): NewOperation =>
  ({ process: thread, type, f, request: id, key: K, ...(fence === undefined ? {} : { fence }) }) as NewOperation;
export const keyState = (node: string, holder: string | null, expiresAtUs: number | null, cause = 'write', by = holder ?? ''): NewOperation => ({
  process: node, type: 'info', f: 'key-state', node, key: K, holder, expiresAtUs, cause, by, previousHolder: null,
});
export const fault = (name: string, phase: 'start' | 'end' | 'event', target: string): NewOperation => ({ process: 'nemesis', type: 'info', f: 'fault', fault: name, phase, target, detail: '' });
export const renew = (thread: string, id: string): NewOperation => ({ process: thread, type: 'ok', f: 'renew', request: id, detail: 'renewed' });
