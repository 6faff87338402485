/** Which server version has which compare command and SET option (server-versions.ts, with its sources). */
import { describe, expect, it } from 'vitest';
import { serverHasCommand, setConditionOf, VERSIONED_COMMANDS } from '../../../src/world/redis/server-versions.js';

describe('server versions', () => {
  it('redis-7.0 and redis-7.4 have none of the compare commands or SET options', () => {
    for (const server of ['redis-7.0', 'redis-7.4'] as const) {
      for (const c of VERSIONED_COMMANDS) expect(serverHasCommand(server, c), `${server} ${c}`).toBe(false);
      for (const o of ['ifeq', 'ifne', 'ifdeq', 'ifdne']) expect(setConditionOf(server, o), `${server} ${o}`).toBe(null);
    }
  });

  it('redis-8.4 has DELEX and DIGEST and all four SET conditions, but not Valkey\'s DELIFEQ', () => {
    expect(['delex', 'digest', 'delifeq'].map((c) => serverHasCommand('redis-8.4', c))).toEqual([true, true, false]);
    expect(['ifeq', 'ifne', 'ifdeq', 'ifdne'].map((o) => setConditionOf('redis-8.4', o))).toEqual(['ifeq', 'ifne', 'ifdeq', 'ifdne']);
  });

  it('valkey-8.1 has SET IFEQ only; valkey-9.0 adds DELIFEQ', () => {
    expect([...VERSIONED_COMMANDS].filter((c) => serverHasCommand('valkey-8.1', c))).toEqual([]);
    expect([...VERSIONED_COMMANDS].filter((c) => serverHasCommand('valkey-9.0', c))).toEqual(['delifeq']);
    for (const server of ['valkey-8.1', 'valkey-9.0'] as const) {
      expect(['ifeq', 'ifne', 'ifdeq', 'ifdne'].map((o) => setConditionOf(server, o))).toEqual(['ifeq', null, null, null]);
    }
  });
});
