/** The TCP proxy of real runs: passes bytes in order, cuts and heals, stalls and releases. */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../src/backends/real/ports.js';
import { classify, TcpProxy } from '../../../src/backends/real/proxy.js';

let echo: Server;
let echoPort = 0;

beforeAll(async () => {
  echo = createServer((s) => s.pipe(s));
  echoPort = await freePort();
  await new Promise<void>((resolve) => echo.listen(echoPort, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => echo.close(() => resolve())));

async function proxyWith(up: () => number, down: () => number): Promise<TcpProxy> {
  const proxy = new TcpProxy('test', echoPort, { up, down });
  await proxy.listen(await freePort());
  return proxy;
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Reads until `n` bytes came back, or the socket closed. */
function read(s: Socket, n: number): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const done = (): void => resolve(got);
    s.on('data', (d: Buffer) => {
      got += d.toString();
      if (got.length >= n) done();
    });
    s.once('close', done);
  });
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('TcpProxy', () => {
  it('carries every chunk both ways in order, whatever delay each chunk draws', async () => {
    let i = 0;
    // Delays that fall as chunks go on: a later chunk would overtake an earlier one if the proxy let it.
    const proxy = await proxyWith(() => Math.max(0, 8000 - 1000 * i++), () => 0);
    const s = await open(proxy.port);
    const reply = read(s, 40);
    for (let k = 0; k < 8; k++) {
      s.write(`msg${k};`.padEnd(5, '.'));
      await tick(1);
    }
    expect(await reply).toBe(Array.from({ length: 8 }, (_, k) => `msg${k};`).join(''));
    s.destroy();
    await proxy.close();
  });

  it('a reject cut drops open connections and refuses new ones; healing lets them through again', async () => {
    const proxy = await proxyWith(() => 0, () => 0);
    const s = await open(proxy.port);
    const closed = new Promise<void>((resolve) => s.once('close', () => resolve()));
    proxy.setCut('reject');
    await closed;
    const refused = await open(proxy.port).then(
      (t) => new Promise<boolean>((resolve) => t.once('close', () => resolve(true))),
      () => true,
    );
    expect(refused).toBe(true);
    proxy.setCut(null);
    const again = await open(proxy.port);
    const reply = read(again, 2);
    again.write('ok');
    expect(await reply).toBe('ok');
    again.destroy();
    await proxy.close();
  });

  it('a stalled direction holds its chunks until released, the other one is untouched', async () => {
    const proxy = await proxyWith(() => 0, () => 0);
    const s = await open(proxy.port);
    proxy.setStalled('down', true);
    let got = '';
    s.on('data', (d: Buffer) => (got += d.toString()));
    s.write('held');
    while (proxy.heldChunks('down') === 0) await tick(5); // the echo answered; its reply waits in the proxy
    expect(got).toBe('');
    const reply = read(s, 4);
    proxy.setStalled('down', false);
    expect(await reply).toBe('held');
    s.destroy();
    await proxy.close();
  });

  it('a replication stall holds the stream down a replica\'s connection (it sent PSYNC), not a Sentinel\'s', async () => {
    const proxy = await proxyWith(() => 0, () => 0);
    const replica = await open(proxy.port);
    const sentinel = await open(proxy.port);
    let toReplica = '';
    replica.on('data', (d: Buffer) => (toReplica += d.toString()));
    const hello = read(replica, 'PSYNC ? -1'.length);
    replica.write('PSYNC ? -1');
    expect(await hello).toBe('PSYNC ? -1'); // flows before the stall
    toReplica = '';
    proxy.setReplicationStalled(true);
    replica.write('+stream');
    const ping = read(sentinel, 4);
    sentinel.write('PING');
    expect(await ping).toBe('PING'); // the Sentinel's connection is not held
    while (proxy.heldChunks('down') === 0) await tick(5);
    expect(toReplica).toBe('');
    const released = read(replica, '+stream'.length);
    proxy.setReplicationStalled(false);
    expect(await released).toBe('+stream');
    replica.destroy();
    sentinel.destroy();
    await proxy.close();
  });

  it('tells a Sentinel\'s link and a replica\'s from their first commands, and nothing else', () => {
    expect(classify('*3\r\n$6\r\nCLIENT\r\n$7\r\nSETNAME\r\n$21\r\nsentinel-1a2b3c4d-cmd\r\n')).toBe('sentinel');
    expect(classify('*1\r\n$4\r\nPING\r\n*3\r\n$8\r\nREPLCONF\r\n$14\r\nlistening-port\r\n$5\r\n40123\r\n')).toBe('replica:40123');
    expect(classify('*1\r\n$4\r\nPING\r\n')).toBeNull();
    expect(classify('*3\r\n$3\r\nSET\r\n$8\r\nsentinel\r\n$1\r\nx\r\n')).toBeNull();
  });

  it('cuts one path and leaves the other connections through the same proxy alone', async () => {
    const proxy = await proxyWith(() => 0, () => 0);
    const sentinel = await open(proxy.port);
    const replica = await open(proxy.port);
    sentinel.resume(); // reads the echo, so the close is seen
    const sentinelClosed = new Promise<void>((resolve) => sentinel.once('close', () => resolve()));
    sentinel.write('*3\r\n$6\r\nCLIENT\r\n$7\r\nSETNAME\r\n$21\r\nsentinel-1a2b3c4d-cmd\r\n');
    const replicaEcho = read(replica, 47);
    replica.write('*3\r\n$8\r\nREPLCONF\r\n$14\r\nlistening-port\r\n$3\r\n123\r\n');
    await replicaEcho;
    await tick(20);
    proxy.setPathCut('sentinel', 'reject');
    await sentinelClosed;
    const after = read(replica, 5);
    replica.write('still');
    expect(await after).toBe('still');
    expect(proxy.connections).toBe(1);
    // A new Sentinel link is closed as soon as it names itself; healed, one goes through.
    const again = await open(proxy.port);
    again.resume();
    const againClosed = new Promise<void>((resolve) => again.once('close', () => resolve()));
    again.write('*3\r\n$6\r\nCLIENT\r\n$7\r\nSETNAME\r\n$21\r\nsentinel-1a2b3c4d-cmd\r\n');
    await againClosed;
    proxy.setPathCut('sentinel', null);
    const healed = await open(proxy.port);
    const healedEcho = read(healed, 8);
    healed.write('*3\r\n$6\r\n');
    expect(await healedEcho).toBe('*3\r\n$6\r\n');
    for (const sock of [replica, healed]) sock.destroy();
    await proxy.close();
  });
});
