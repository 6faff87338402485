// Imports every Node 20 builtin, by name and dynamically, and reports what it saw
// (test/own-code/sandbox.test.ts): each namespace's keys, a refused call's message, and some
// virtual values, as the message of an error the history keeps.
/* eslint-disable */
import * as m0 from 'node:_http_agent';
import * as m1 from 'node:_http_client';
import * as m2 from 'node:_http_common';
import * as m3 from 'node:_http_incoming';
import * as m4 from 'node:_http_outgoing';
import * as m5 from 'node:_http_server';
import * as m6 from 'node:_stream_duplex';
import * as m7 from 'node:_stream_passthrough';
import * as m8 from 'node:_stream_readable';
import * as m9 from 'node:_stream_transform';
import * as m10 from 'node:_stream_wrap';
import * as m11 from 'node:_stream_writable';
import * as m12 from 'node:_tls_common';
import * as m13 from 'node:_tls_wrap';
import * as m14 from 'node:assert';
import * as m15 from 'node:assert/strict';
import * as m16 from 'node:async_hooks';
import * as m17 from 'node:buffer';
import * as m18 from 'node:child_process';
import * as m19 from 'node:cluster';
import * as m20 from 'node:console';
import * as m21 from 'node:constants';
import * as m22 from 'node:crypto';
import * as m23 from 'node:dgram';
import * as m24 from 'node:diagnostics_channel';
import * as m25 from 'node:dns';
import * as m26 from 'node:dns/promises';
import * as m27 from 'node:domain';
import * as m28 from 'node:events';
import * as m29 from 'node:fs';
import * as m30 from 'node:fs/promises';
import * as m31 from 'node:http';
import * as m32 from 'node:http2';
import * as m33 from 'node:https';
import * as m34 from 'node:inspector';
import * as m35 from 'node:inspector/promises';
import * as m36 from 'node:module';
import * as m37 from 'node:net';
import * as m38 from 'node:os';
import * as m39 from 'node:path';
import * as m40 from 'node:path/posix';
import * as m41 from 'node:path/win32';
import * as m42 from 'node:perf_hooks';
import * as m43 from 'node:process';
import * as m44 from 'node:punycode';
import * as m45 from 'node:querystring';
import * as m46 from 'node:readline';
import * as m47 from 'node:readline/promises';
import * as m48 from 'node:repl';
import * as m49 from 'node:stream';
import * as m50 from 'node:stream/consumers';
import * as m51 from 'node:stream/promises';
import * as m52 from 'node:stream/web';
import * as m53 from 'node:string_decoder';
import * as m54 from 'node:sys';
import * as m55 from 'node:timers';
import * as m56 from 'node:timers/promises';
import * as m57 from 'node:tls';
import * as m58 from 'node:trace_events';
import * as m59 from 'node:tty';
import * as m60 from 'node:url';
import * as m61 from 'node:util';
import * as m62 from 'node:util/types';
import * as m63 from 'node:v8';
import * as m64 from 'node:vm';
import * as m65 from 'node:wasi';
import * as m66 from 'node:worker_threads';
import * as m67 from 'node:zlib';
import { createHash, randomUUID, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { hostname } from 'node:os';
import { hrtime, pid, uptime } from 'node:process';
const NAMED = { '_http_agent': m0, '_http_client': m1, '_http_common': m2, '_http_incoming': m3, '_http_outgoing': m4, '_http_server': m5, '_stream_duplex': m6, '_stream_passthrough': m7, '_stream_readable': m8, '_stream_transform': m9, '_stream_wrap': m10, '_stream_writable': m11, '_tls_common': m12, '_tls_wrap': m13, 'assert': m14, 'assert/strict': m15, 'async_hooks': m16, 'buffer': m17, 'child_process': m18, 'cluster': m19, 'console': m20, 'constants': m21, 'crypto': m22, 'dgram': m23, 'diagnostics_channel': m24, 'dns': m25, 'dns/promises': m26, 'domain': m27, 'events': m28, 'fs': m29, 'fs/promises': m30, 'http': m31, 'http2': m32, 'https': m33, 'inspector': m34, 'inspector/promises': m35, 'module': m36, 'net': m37, 'os': m38, 'path': m39, 'path/posix': m40, 'path/win32': m41, 'perf_hooks': m42, 'process': m43, 'punycode': m44, 'querystring': m45, 'readline': m46, 'readline/promises': m47, 'repl': m48, 'stream': m49, 'stream/consumers': m50, 'stream/promises': m51, 'stream/web': m52, 'string_decoder': m53, 'sys': m54, 'timers': m55, 'timers/promises': m56, 'tls': m57, 'trace_events': m58, 'tty': m59, 'url': m60, 'util': m61, 'util/types': m62, 'v8': m63, 'vm': m64, 'wasi': m65, 'worker_threads': m66, 'zlib': m67 };

export default function everyBuiltin([redis]) {
  return {
    async acquire(key) {
      const seen = { named: {}, dynamic: {}, refused: {} };
      for (const [name, ns] of Object.entries(NAMED)) seen.named[name] = Object.keys(ns).length;
      for (const name of Object.keys(NAMED)) {
        try {
          const ns = await import(`node:${name}`);
          seen.dynamic[name] = ns.default === NAMED[name].default;
        } catch (err) {
          seen.dynamic[name] = `import failed: ${err.message}`;
        }
      }
      for (const [name, call] of [['net', () => m37.default.connect(6379)], ['child_process', () => m18.default.spawn('ls')], ['http', () => m31.default.get('http://x')], ['fs', () => m29.default.writeFileSync('out.txt', 'y')], ['vm', () => m64.default.runInNewContext('1')]]) {
        try {
          call();
          seen.refused[name] = 'not refused';
        } catch (err) {
          seen.refused[name] = err.message;
        }
      }
      const t0 = Date.now();
      await sleep(250);
      seen.slept = Date.now() - t0;
      seen.hash = createHash('sha1').update('x').digest('hex');
      seen.uuid = randomUUID().length;
      seen.int = randomInt(10) < 10;
      seen.host = hostname();
      seen.pid = pid;
      seen.hr = Array.isArray(hrtime()) && typeof hrtime.bigint() === 'bigint';
      seen.uptime = uptime() >= 0;
      seen.date = new Date(2024, 0, 1, 12, 30).toString();
      seen.dateCall = typeof Date();
      seen.zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      seen.number = (1234567.891).toLocaleString();
      seen.pathFrozen = Object.isFrozen(NAMED.path.default);
      await redis.get(key);
      throw new Error(`RESULTS ${JSON.stringify(seen)}`);
    },
    async release() {
      return false;
    },
  };
}
