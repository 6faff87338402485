/**
 * A describe block run against a real redis-server started for it (redis-server.ts). Without
 * redis-server it is skipped with a message, unless CI is set: then it fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conformance } from './harness.js';
import { RespClient } from './resp.js';
import { findRedisServer, inCi, redisServerSkipNotice, startRedisServer, type RunningServer } from './redis-server.js';

export function withRealRedis(title: string, body: (conformance: () => Conformance) => void): void {
  const executable = findRedisServer();
  const skip = executable === null && !inCi();
  // Printed here as well as by test/notices.ts, so that running one file alone says it too.
  if (skip) console.warn(`${redisServerSkipNotice()} (${title})`);
  describe.skipIf(skip)(title, () => {
    let server: RunningServer | undefined;
    let conformance: Conformance | undefined;
    beforeAll(async () => {
      if (executable === null) throw new Error('redis-server not found and CI is set: the conformance suite must run (.ci/run installs it with apt)');
      server = await startRedisServer(executable);
      const port = server.port;
      conformance = new Conformance(server.client, () => RespClient.connect(port));
    });
    afterAll(async () => {
      await server?.stop();
    });
    it('runs against Redis 7 (the model follows redis 7.0.15)', () => {
      expect(server?.version).toMatch(/^7\./);
    });
    body(() => {
      if (conformance === undefined) throw new Error('no redis-server started');
      return conformance;
    });
  });
}
