/**
 * The watchdog's limit per entry into user code (src/own-code/watchdog.ts): a call gets the
 * limit a caller set; loading a module keeps at least the default, so a lowered limit for calls
 * (a busy-loop test, LOCK_SIM_USER_CODE_WATCHDOG_MS) does not stop an honest load on a loaded machine.
 */
import { describe, expect, it } from 'vitest';
import { enterUserCode, installWatch, leaveUserCode, limitForEntryMs, WATCH_BYTES, watchMemory } from '../../src/own-code/watchdog.js';

function memoryAfterEntering(op: string) {
  const m = watchMemory(new SharedArrayBuffer(WATCH_BYTES));
  installWatch(m, () => {});
  enterUserCode(op, 'client-1', null, 0);
  leaveUserCode();
  return m;
}

describe('the watchdog limit for an entry', () => {
  it('a load, a start of run or a probe keeps at least the default', () => {
    for (const op of ['load', 'start-run', 'probe', 'probe-result']) {
      expect(limitForEntryMs(memoryAfterEntering(op), 500, 60_000)).toBe(60_000);
      expect(limitForEntryMs(memoryAfterEntering(op), 90_000, 60_000)).toBe(90_000);
    }
  });

  it('a call gets the limit the caller set, lower or higher than the default', () => {
    for (const op of ['client', 'acquire', 'release', 'fire', 'reply', 'message', 'status', 'retry', 'kill']) {
      expect(limitForEntryMs(memoryAfterEntering(op), 500, 60_000)).toBe(500);
      expect(limitForEntryMs(memoryAfterEntering(op), 90_000, 60_000)).toBe(90_000);
    }
  });
});
