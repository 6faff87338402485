/**
 * A lock protocol whose acquire and release are the user module's: the request's thread
 * calls into user code and waits until its promise settles. A promise that never settles
 * leaves the request in flight (the drain ends it as unknown); an exception settles the call
 * as failed: "Command timed out" (ioredis' commandTimeout) as a timeout, an error after
 * which the command may have run (MaxRetriesPerRequestError) as unknown, any other as an error.
 */
import type { Signal } from '../engine/signal.js';
import type { AcquireResult, LockHandle, LockProtocol, ReleaseResult } from '../variants/lock-protocol.js';
import { ACQUIRED, BUSY, RELEASED } from '../variants/locks/lock-results.js';
import type { ClientHost } from '../world/client-host.js';
import type { Effect } from '../world/effects.js';
import type { OwnCodeRuntime, Settled } from './runtime.js';

/** No handle: release on behalf of a request that never acquired (unlock-always). */
const NO_HANDLE = -1;

function failure(s: Extract<Settled, { ok: false }>): { reason: 'timeout' | 'unknown' | 'error'; detail: string } {
  // The error's text and, when known, the first frame of user code it passed (sandbox/frames.ts).
  const frame = s.error.frame && !s.error.message.includes(s.error.frame) ? ` (at ${s.error.frame})` : '';
  const detail = `${s.error.name}: ${s.error.message}${frame}`;
  if (s.error.timeout) return { reason: 'timeout', detail };
  if (s.error.name === 'MaxRetriesPerRequestError') return { reason: 'unknown', detail };
  return { reason: 'error', detail };
}

export function ownCodeLock(runtime: Pick<OwnCodeRuntime, 'acquire' | 'release'>, label: string): LockProtocol {
  const handles = new WeakMap<LockHandle, number>();
  const callEffect = (start: (host: ClientHost, tag: string) => Signal<Settled>): Effect => ({ kind: 'own-code', start });
  return {
    name: 'module',
    summary: `the user module ${label}`,
    *acquire(lock, params): Generator<Effect, AcquireResult, unknown> {
      lock.leaseMs = params.leaseMs;
      const r = (yield callEffect((host, tag) => runtime.acquire(host, tag, lock.key))) as Settled;
      if (!r.ok) return { acquired: false, ...failure(r) };
      if (typeof r.value !== 'number') return BUSY;
      handles.set(lock, r.value);
      return ACQUIRED;
    },
    *release(lock): Generator<Effect, ReleaseResult, unknown> {
      const handle = handles.get(lock) ?? NO_HANDLE;
      handles.delete(lock);
      const r = (yield callEffect((host, tag) => runtime.release(host, tag, handle, lock.key))) as Settled;
      if (!r.ok) {
        const f = failure(r);
        return { released: false, reason: f.reason === 'timeout' ? 'timeout' : 'error', detail: f.detail };
      }
      return r.value === true ? RELEASED : { released: false, reason: 'not-held', detail: 'release resolved false' };
    },
  };
}
