/**
 * vitest globalSetup: says out loud what the run leaves out. A test file that skips itself is
 * one line among hundreds in vitest's output; this notice is printed before the first test
 * and again after the last, outside any reporter's buffering.
 */
import { redisServerSkipNotice } from './conformance/redis-server.js';
import { chromiumAvailable, skipNotice } from './report/chromium.js';

export default function setup(): () => void {
  const notices = chromiumAvailable() ? [] : [skipNotice()];
  const redis = redisServerSkipNotice();
  if (redis !== null) notices.push(redis);
  for (const n of notices) process.stderr.write(`\n${n}\n\n`);
  return () => {
    for (const n of notices) process.stderr.write(`\n${n}\n`);
  };
}
