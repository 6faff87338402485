/**
 * Which simulated client (and request) the user code running now belongs to, across its
 * promise chains: what AsyncLocalStorage gave here before, at a fraction of its cost. Node
 * 20's AsyncLocalStorage (lib/async_hooks.js) keeps a store on the current async resource,
 * copies it to every promise made (an async_hooks `init` hook, with an async id and a trigger
 * id per promise) and makes a promise the current resource while one of its reactions runs
 * (`before`/`after`). This does the same with V8's promise hooks directly (`v8.promiseHooks`,
 * which Node installs into every context, vm contexts included): a promise made while a store
 * is current carries it; while a reaction of that promise runs, its store is current; `run`
 * sets one around a call. No async ids, no resource lookup. Measured on the own-code twin
 * bench (scenarios/own-code/twin-lua-unlock.yaml): async_hooks' promise hooks were about 4%
 * of a module run's CPU time, plus their garbage.
 */
import { promiseHooks } from 'node:v8';

const STORE = Symbol('lock-sim own-code client');

let current: unknown = undefined;
/** The stores of the reactions being run, innermost last (a reaction may run a script that drains another queue). */
const outer: unknown[] = [];
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  promiseHooks.createHook({
    init(promise) {
      // Only when a store is current: a promise without the property reads as none.
      if (current !== undefined) (promise as unknown as Record<symbol, unknown>)[STORE] = current;
    },
    before(promise) {
      outer.push(current);
      current = (promise as unknown as Record<symbol, unknown>)[STORE];
    },
    after() {
      current = outer.pop();
    },
  });
}

export interface ClientStore {
  /** Runs `fn` with `store` current (and what it sets off carries it). */
  run<T>(store: unknown, fn: () => T): T;
  /** The store current now, or undefined. */
  getStore(): unknown;
}

export function clientStore(): ClientStore {
  install();
  return {
    run<T>(store: unknown, fn: () => T): T {
      const before = current;
      current = store;
      try {
        return fn();
      } finally {
        current = before;
      }
    },
    getStore: () => current,
  };
}
