// A token lock written in TypeScript (test/own-code/typescript.test.ts): type-only imports,
// interfaces, annotations, generics, `as`, `satisfies`, and an import of another .ts file by
// the name of what it compiles to (./token.js), as tsc expects.
import type { Redis } from 'ioredis';
import { token, UNLOCK } from './token.js';
import { pad } from './helper.cts';

interface Held {
  key: string;
  value: string;
}
type Options = { leaseMs: number; fail?: boolean };

export default function tokenLock([redis]: Redis[], { leaseMs, fail = false }: Options) {
  return {
    async acquire(key: string): Promise<Held | null> {
      if (fail) throw new Error(`refused ${pad(key)}`);
      const value = token<string>('t');
      const reply = (await redis.set(key, value, 'PX', leaseMs, 'NX')) as 'OK' | null;
      return reply === 'OK' ? ({ key, value } satisfies Held) : null;
    },
    async release(h: Held | null): Promise<boolean> {
      if (h === null) return false;
      return ((await redis.eval(UNLOCK, 1, h.key, h.value)) as number) === 1;
    },
  };
}
