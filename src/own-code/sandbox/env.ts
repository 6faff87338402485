/**
 * What the sandbox's builders (process.ts, virtual-modules.ts, globals.ts) work with: the
 * realm's intrinsics, the glue's simulated primitives, the process now running in the realm,
 * and how a call is refused (the refusal names the module, the call and the user file that
 * made it, throws an error of the realm and is recorded as a 'refused-call' diagnostic).
 */
import type { GluePrims } from '../realm-bridge.js';
import { callerFrame } from './frames.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** The process a realm runs now (user-code.ts ProcessIdentity without its seed). */
export interface SandboxProcess {
  /** Its number in the run (a restarted process gets a new one). */
  client: number;
  /** The client host's name (`client-1`). */
  name: string;
  incarnation: number;
  /** The scenario file's directory: frames are relative to it. */
  baseDir: string;
  /** IANA time zone Date's local time and Intl read (UTC unless the variant says otherwise). */
  timeZone: string;
  /** BCP 47 locale Intl and the toLocale* methods default to. */
  locale: string;
}

/** The context's own constructors (a value user code creates or catches is of its realm). */
export interface Intrinsics {
  Object: ObjectConstructor;
  Error: ErrorConstructor;
  TypeError: TypeErrorConstructor;
  RangeError: RangeErrorConstructor;
  Promise: PromiseConstructor;
  Date: DateConstructor;
  Intl: typeof Intl;
  Number: NumberConstructor;
  String: StringConstructor;
  Array: ArrayConstructor;
  BigInt: BigIntConstructor;
  WeakRef: WeakRefConstructor;
  FinalizationRegistry: FinalizationRegistryConstructor;
  Symbol: SymbolConstructor;
  Uint8Array: Uint8ArrayConstructor;
}

export interface SandboxEnv {
  intrinsics: Intrinsics;
  prims: GluePrims;
  /** The process running in the realm now. */
  who(): SandboxProcess;
  /** Its pid: deterministic, a new one per incarnation. */
  pid(): number;
  /** Whether the module is still loading (reads of files next to it are allowed then). */
  loading(): boolean;
  /** A function that refuses `module`.`call` when called (or constructed), saying why. */
  refuser(module: string, call: string, why: string): (...args: any[]) => never;
  /** Where user code's console output goes (sandbox/console.ts). */
  write(stream: 'stdout' | 'stderr', text: string): void;
}

/** Why each kind of refused module is refused: the message's tail. */
export const WHY = {
  network: 'real network I/O is not simulated: talk to Redis through the clients the factory receives',
  process: 'a simulated client process cannot start, signal or inspect real processes or threads',
  files: 'lock-sim allows only reads of files next to the module while it loads; writes and later reads are real I/O, which is not simulated',
  eventLoop: "it needs Node's own event loop, which does not run while simulated time stands still",
  host: 'it would reach into the host running the simulation (its engine, its debugger, its terminal)',
  nondeterministic: 'its result would differ from run to run (the simulation replays byte for byte)',
} as const;

/** Builds the refuser of a sandbox: each refusal is thrown and reported (DiagnosticOp 'refused-call'). */
export function makeRefuser(intrinsics: Intrinsics, prims: () => GluePrims, baseDir: () => string): SandboxEnv['refuser'] {
  return (module, call, why) => {
    const name = module === '' ? call : `node:${module} ${call}`;
    return function refused(): never {
      const frame = callerFrame(baseDir());
      const message = `lock-sim refused ${name}${frame ? ` (called at ${frame})` : ''}: ${why}`;
      const err = new intrinsics.Error(message);
      (err as any).code = 'ERR_LOCK_SIM_REFUSED';
      prims().report('refused-call', { name: 'Error', message: `${name} refused: ${why}` }, frame);
      throw err;
    };
  };
}
