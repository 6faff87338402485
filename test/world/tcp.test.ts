/** TCP as a client without a command timeout feels it: retransmission across cuts, giving up, FIN, keepalive. */
import { describe, expect, it } from 'vitest';
import { constant } from '../../src/engine/distribution.js';
import { Simulation } from '../../src/engine/simulation.js';
import { Fabric } from '../../src/world/network.js';
import { dialTcp, retransmitOffsetUs, TcpConnection, type TcpPath } from '../../src/world/tcp.js';

const PAIR: [string, string] = ['client-1', 'redis-0'];

function setup(): { sim: Simulation; fabric: Fabric; path: TcpPath; conn: TcpConnection; closed: Array<[number, string]> } {
  const sim = new Simulation(1);
  const fabric = new Fabric();
  const path: TcpPath = { sim, fabric, latency: constant(1_000), rng: sim.random.fork('tcp-test') };
  const conn = new TcpConnection(path, ...PAIR);
  const closed: Array<[number, string]> = [];
  conn.onClientClose = (reason) => closed.push([sim.nowUs, reason]);
  return { sim, fabric, path, conn, closed };
}

/** A partition of the pair from `fromUs` for `forUs`. */
function cut(sim: Simulation, fabric: Fabric, fromUs: number, forUs: number): void {
  sim.scheduleAt(fromUs, () => fabric.cut([PAIR]));
  sim.scheduleAt(fromUs + forUs, () => fabric.heal([PAIR]));
}

describe('TCP retransmission', () => {
  it('backs off from 200 ms, doubling up to 120 s, and gives up at 924.6 s (tcp_retries2 = 15)', () => {
    expect([1, 2, 3, 5].map(retransmitOffsetUs)).toEqual([200_000, 600_000, 1_400_000, 6_200_000]);
    expect(retransmitOffsetUs(10)).toBe(204_600_000);
    expect(retransmitOffsetUs(11)).toBe(324_600_000); // 120 s steps from here
    expect(retransmitOffsetUs(16)).toBe(924_600_000);
  });

  it('delivers a segment sent into a 5 s cut with the first retransmission after it heals (6.2 s)', () => {
    const { sim, fabric, conn } = setup();
    cut(sim, fabric, 0, 5_000_000);
    let arrivedUs = -1;
    sim.scheduleAt(1, () => conn.sendToServer(() => (arrivedUs = sim.nowUs)));
    sim.run();
    expect(arrivedUs).toBe(1 + 6_200_000 + 1_000);
  });

  it('delivers it with the first retransmission when the cut heals within 200 ms', () => {
    const { sim, fabric, conn } = setup();
    cut(sim, fabric, 0, 150_000);
    let arrivedUs = -1;
    sim.scheduleAt(1, () => conn.sendToServer(() => (arrivedUs = sim.nowUs)));
    sim.run();
    expect(arrivedUs).toBe(1 + 200_000 + 1_000);
  });

  it('keeps order: a later segment waits for the lost one before it, then both arrive at once', () => {
    const { sim, fabric, conn } = setup();
    cut(sim, fabric, 0, 1_000_000);
    const order: Array<[string, number]> = [];
    sim.scheduleAt(1, () => conn.sendToServer(() => order.push(['first', sim.nowUs])));
    // Sent after the heal: it arrives at 1.001 s, but the first one is only retransmitted at 1.4 s.
    sim.scheduleAt(1_000_000, () => conn.sendToServer(() => order.push(['second', sim.nowUs])));
    sim.run();
    expect(order).toEqual([['first', 1_401_001], ['second', 1_401_001]]);
  });

  it('still delivers after a cut that heals at 800 s (the retransmission at 804.6 s)', () => {
    const { sim, fabric, conn, closed } = setup();
    cut(sim, fabric, 0, 800_000_000);
    let arrivedUs = -1;
    sim.scheduleAt(0, () => conn.sendToServer(() => (arrivedUs = sim.nowUs)));
    sim.run();
    expect(arrivedUs).toBe(804_600_000 + 1_000);
    expect(closed).toEqual([]);
  });

  it('gives up when the cut heals at 810 s: the next timer runs out at 924.6 s and the client end is reset', () => {
    const { sim, fabric, conn, closed } = setup();
    cut(sim, fabric, 0, 810_000_000);
    let arrived = false;
    sim.scheduleAt(0, () => conn.sendToServer(() => (arrived = true)));
    sim.run();
    expect(arrived).toBe(false);
    expect(closed.map(([t]) => t)).toEqual([924_600_000]);
    expect(conn.clientClosed).toBe(true);
  });
});

describe('TCP ends', () => {
  it('tells the client when the server process dies (FIN, one trip later), behind the replies already sent', () => {
    const { sim, conn, closed } = setup();
    const got: string[] = [];
    sim.scheduleAt(0, () => {
      conn.sendToClient(() => got.push('reply'));
      conn.serverDied();
    });
    sim.run();
    expect(got).toEqual(['reply']);
    expect(closed).toEqual([[1_000, 'connection closed by the server']]);
  });

  it('hears of a reply the server gave up on only by keepalive, 7200 s after it last heard anything', () => {
    const { sim, fabric, conn, closed } = setup();
    cut(sim, fabric, 0, 1_000_000_000); // 1000 s: the server's kernel gives up on the reply at 924.6 s
    let got = false;
    sim.scheduleAt(0, () => conn.sendToClient(() => (got = true)));
    sim.run();
    expect(got).toBe(false);
    expect(conn.serverGone).toBe(true);
    // The first probe (7200 s) finds the path open and the server's socket gone: RST.
    expect(closed).toEqual([[7_200_000_000 + 2_000, 'read ECONNRESET']]);
  });

  it('gives the connection up after 9 unanswered keepalive probes (7875 s) when the cut outlasts them', () => {
    const { sim, fabric, conn, closed } = setup();
    cut(sim, fabric, 0, 8_000_000_000);
    sim.scheduleAt(0, () => conn.sendToClient(() => undefined));
    sim.run();
    expect(closed).toEqual([[7_875_000_000, 'read ETIMEDOUT (keepalive)']]);
  });

  it('connects where a process listens and is refused where none does', () => {
    const { sim, path } = setup();
    const results: Array<[number, boolean]> = [];
    const dial = (listening: boolean) =>
      dialTcp(path, ...PAIR, () => listening, () => true, (c) => results.push([sim.nowUs, c !== null]));
    sim.scheduleAt(0, () => dial(true));
    sim.scheduleAt(10_000, () => dial(false));
    sim.run();
    expect(results).toEqual([[2_000, true], [12_000, false]]);
  });

  it('sends SYN again after 1 s, 3 s, 7 s while the server is cut off', () => {
    const { sim, fabric, path } = setup();
    cut(sim, fabric, 0, 2_000_000);
    let connectedUs = -1;
    sim.scheduleAt(0, () => dialTcp(path, ...PAIR, () => true, () => true, (c) => c && (connectedUs = sim.nowUs)));
    sim.run();
    expect(connectedUs).toBe(3_000_000 + 2_000);
  });
});
