/**
 * Every hand-written history of the checker's tests, judged by the streaming checker too:
 * those test files are loaded here with checkHistory wrapped so that each history also goes
 * through a StreamingChecker (grace 0, dropping finished requests at once) and, when it can
 * judge the history alone, its verdict must equal the batch checker's. The tests' own
 * expectations keep reading the batch verdict.
 */
import { afterAll, expect, it, vi } from 'vitest';
import type { History } from '../../../src/history/operation.js';

const seen = { histories: 0, judged: 0 };

vi.mock('../../../src/checker/check.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/checker/check.js')>();
  const { StreamingChecker } = await import('../../../src/checker/stream.js');
  return {
    ...real,
    checkHistory(ops: History) {
      const batch = real.checkHistory(ops);
      // A few tests write their entries out of time order; the streaming checker declines those.
      const inOrder = ops.every((op, i) => i === 0 || op.timeUs >= ops[i - 1].timeUs);
      for (const graceUs of [0, 60_000_000]) {
        const stream = new StreamingChecker({ graceUs });
        for (const op of ops) stream.observe(op);
        const verdict = stream.finish();
        seen.histories++;
        expect(verdict === null).toBe(!inOrder);
        if (verdict === null) continue;
        seen.judged++;
        expect(verdict).toEqual(batch);
      }
      return batch;
    },
  };
});

await import('../check.test.js');
await import('../casebook-checks.test.js');
await import('../stock.test.js');
await import('../orphans.test.js');
await import('../fencing.test.js');
await import('../requests.test.js');

afterAll(() => {
  expect(seen.histories).toBeGreaterThan(100);
  expect(seen.judged).toBeGreaterThan(seen.histories * 0.9);
});

it('loads the checker tests', () => expect(true).toBe(true));
