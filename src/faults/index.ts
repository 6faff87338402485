/** Fault kinds by name; each is plain data in the scenario and a module here. */
import type { FaultSpec } from '../scenario/types.js';
import { injectClientCrash } from './client-crash.js';
import type { FaultContext } from './fault-context.js';
import { injectGcPause } from './gc-pause.js';
import { injectPrimaryCrash } from './primary-crash.js';
import { injectSlowCall } from './slow-call.js';

export type { FaultContext } from './fault-context.js';

export const FAULT_KINDS = ['gc-pause', 'slow-call', 'primary-crash', 'crash'] as const;

export function injectFault(spec: FaultSpec, ctx: FaultContext): void {
  switch (spec.kind) {
    case 'gc-pause':
      return injectGcPause(spec, ctx);
    case 'slow-call':
      return injectSlowCall(spec, ctx);
    case 'primary-crash':
      return injectPrimaryCrash(spec, ctx);
    case 'crash':
      return injectClientCrash(spec, ctx);
  }
}
