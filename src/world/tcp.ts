/**
 * A TCP connection between a client host and a Redis server, as a client without a command
 * timeout of its own feels it (node-redlock on ioredis: ioredis-connection.ts). The plain
 * `Link` drops what a partition cuts, which is right for clients that time out; a client
 * that waits for ever needs to know when TCP delivers after all, or gives up.
 *
 * - A segment lost to a partition is sent again when the retransmission timeout runs out.
 *   The timeout starts at 200 ms (Linux TCP_RTO_MIN, include/net/tcp.h: the RTO of a
 *   connection whose round trip is far below it) and doubles up to 120 s (TCP_RTO_MAX); the
 *   segment gets through with the first retransmission after the partition heals.
 * - The sender gives up when a retransmission timer runs out 924.6 s or more after the
 *   segment was first sent (tcp_retries2 = 15; Linux Documentation/networking/ip-sysctl.rst:
 *   "The default value of 15 yields a hypothetical timeout of 924.6 seconds"); its end of the
 *   connection is then reset (ETIMEDOUT).
 * - A sleeping server's kernel still acknowledges: nothing is retransmitted, the reply comes
 *   when the server wakes (the node queues what arrives meanwhile).
 * - A killed server process closes its sockets: its kernel sends FIN, and answers any later
 *   segment with RST.
 * - A client waiting for a reply the server's kernel gave up on hears of it by keepalive
 *   (ioredis `keepAlive: 0` turns it on with the system's timing): a probe after 7200 s
 *   without a segment from the server (tcp_keepalive_time), then 9 probes
 *   (tcp_keepalive_probes) 75 s apart (tcp_keepalive_intvl); the dead server's kernel answers
 *   a probe that reaches it with RST.
 * - A handshake sends SYN again after 1 s, 3 s, 7 s, ... (TCP_TIMEOUT_INIT 1 s, doubling);
 *   the caller's connect timeout bounds it.
 * - A killed client process's kernel closes its sockets: what the process had sent still
 *   reaches the server, FIN behind it; nothing reaches the process any more.
 * Segments keep their order: one that arrives before an earlier, lost one waits for it.
 *
 * Measured with node-redlock 4.2.0 on ioredis 4.28.5 and redis-server 7.0.15 (Linux 6.18;
 * client and servers in network namespaces joined by a router whose blackhole rules cut the
 * client from one server): a lock request sent into a 5 s cut was answered 6.65 s after it
 * was sent, by the 5th retransmission (31 RTOs of 214.5 ms; the model: 31 x 200 ms = 6.2 s);
 * one sent into a 20 s cut, about 27.4 s after (127 RTOs); in a 1300 s cut the client's end
 * was reset (ETIMEDOUT) 938.7 s after the send (the model: 924.6 s; the measured RTO is a
 * little above Linux's 200 ms minimum).
 */
import { sample, type Distribution } from '../engine/distribution.js';
import type { RandomStream } from '../engine/random.js';
import type { Simulation } from '../engine/simulation.js';
import type { Micros } from '../engine/time.js';
import type { Fabric } from './network.js';

const RTO_MIN_US = 200_000;
const RTO_MAX_US = 120_000_000;
/** tcp_retries2 = 15 with TCP_RTO_MIN: the retransmission time after which the sender gives up. */
const GIVE_UP_AFTER_US = 924_600_000;
const KEEPALIVE_TIME_US = 7_200_000_000;
const KEEPALIVE_INTERVAL_US = 75_000_000;
const KEEPALIVE_PROBES = 9;
/** SYN retransmissions: TCP_TIMEOUT_INIT 1 s, doubling (tcp_syn_retries 6: up to 127 s). */
const SYN_RETRY_OFFSETS_US = [0, 1, 3, 7, 15, 31, 63].map((s) => s * 1_000_000);

/** When the k-th retransmission timer of a segment runs out, counted from its first sending. */
export function retransmitOffsetUs(k: number): Micros {
  let offset = 0;
  for (let i = 0; i < k; i++) offset += Math.min(RTO_MIN_US * 2 ** i, RTO_MAX_US);
  return offset;
}

interface Segment {
  deliver: () => void;
  /** In flight, lost to a cut (waiting to be sent again), or arrived (waiting for those before it). */
  state: 'flight' | 'lost' | 'arrived';
  /** When the current run of retransmissions of this segment began (its backoff counts from there). */
  sentUs: Micros;
}

/** The network a connection runs over: who is cut from whom, and how long a trip takes. */
export interface TcpPath {
  sim: Simulation;
  fabric: Fabric;
  latency: Distribution;
  rng: RandomStream;
}

/**
 * One direction of a connection: in-order delivery, and one retransmission timer, for the
 * oldest segment not yet acknowledged (Linux: the RTO timer retransmits the head of the
 * write queue; once it is acknowledged, the hole behind it is filled at once and the backoff
 * starts over).
 */
class TcpDirection {
  private readonly queue: Segment[] = [];
  /** Called when a delivery leaves nothing to send (set when the sender's close waits for it). */
  onDrained: (() => void) | null = null;

  constructor(
    private readonly path: TcpPath,
    readonly from: string,
    readonly to: string,
    /** The connection is over for this direction: nothing more is sent or delivered. */
    private readonly over: () => boolean,
    /** The sender's kernel gave up on a segment. */
    private readonly onGiveUp: () => void,
    /** A reject partition answered a segment with RST (network.ts PartitionMode). */
    private readonly onReset: () => void = () => {},
  ) {}

  send(deliver: () => void): void {
    if (this.over()) return;
    const segment: Segment = { deliver, state: 'flight', sentUs: this.path.sim.nowUs };
    this.queue.push(segment);
    this.transmit(segment, 0);
  }

  /** A control segment outside the byte stream (RST): one trip, lost to a cut, never retransmitted. */
  sendControl(deliver: () => void): void {
    const { sim, fabric, latency, rng } = this.path;
    const tripUs = sample(latency, rng) + fabric.delayBetween(this.from, this.to);
    sim.scheduleAt(sim.nowUs + tripUs, () => {
      if (!this.over() && !fabric.isCut(this.from, this.to)) deliver();
    });
  }

  /** The sender's socket is gone: what it had not delivered is dropped. */
  discard(): void {
    this.queue.length = 0;
  }

  /** Everything sent has been delivered. */
  get drained(): boolean {
    return this.queue.length === 0;
  }

  private transmit(segment: Segment, retransmissions: number): void {
    const { sim, fabric, latency, rng } = this.path;
    segment.state = 'flight';
    const tripUs = sample(latency, rng) + fabric.delayBetween(this.from, this.to);
    sim.scheduleAt(sim.nowUs + tripUs, () => {
      if (this.over()) return;
      if (!fabric.isCut(this.from, this.to)) {
        segment.state = 'arrived';
        this.deliverInOrder();
        return;
      }
      if (fabric.rejects(this.from, this.to)) {
        this.onReset();
        return;
      }
      segment.state = 'lost';
      if (segment === this.queue[0]) this.armRetransmission(segment, retransmissions);
    });
  }

  /** The head was lost: its retransmission timer runs out later, and it is sent again or given up. */
  private armRetransmission(segment: Segment, retransmissions: number): void {
    const nextOffsetUs = retransmitOffsetUs(retransmissions + 1);
    this.path.sim.scheduleAt(segment.sentUs + nextOffsetUs, () => {
      if (this.over() || segment.state !== 'lost') return;
      if (nextOffsetUs >= GIVE_UP_AFTER_US) this.onGiveUp();
      else this.transmit(segment, retransmissions + 1);
    });
  }

  private deliverInOrder(): void {
    let delivered = false;
    while (this.queue.length > 0 && this.queue[0].state === 'arrived') {
      this.queue.shift()!.deliver();
      delivered = true;
    }
    const head = this.queue[0];
    if (delivered && head?.state === 'lost') {
      // The acknowledgement shows the hole: the new head goes again at once, backoff reset.
      head.sentUs = this.path.sim.nowUs;
      this.transmit(head, 0);
    }
    if (delivered && head === undefined) this.onDrained?.();
  }
}

/**
 * One established connection. The client side reads replies from `toClient` and is told
 * once, by `onClientClose`, that its end closed (FIN or RST from the server, its own kernel
 * giving up, or keepalive).
 */
export class TcpConnection {
  /** The server's end is gone (its process died, or its kernel gave up on a segment). */
  serverGone = false;
  /** The client's end is closed; nothing more is sent or delivered on this connection. */
  clientClosed = false;
  /** The client process died: nothing reaches it any more; what it sent still goes to the server. */
  private clientDead = false;
  onClientClose: (reason: string) => void = () => {};
  readonly toServer: TcpDirection;
  readonly toClient: TcpDirection;
  private lastHeardUs: Micros;

  constructor(
    private readonly path: TcpPath,
    readonly client: string,
    readonly server: string,
  ) {
    this.lastHeardUs = path.sim.nowUs;
    const reset = (): void => this.closeClient('read ECONNRESET');
    this.toServer = new TcpDirection(path, client, server, () => this.clientClosed, () => this.closeClient('connect ETIMEDOUT (retransmissions exhausted)'), reset);
    this.toClient = new TcpDirection(path, server, client, () => this.clientClosed || this.clientDead, () => this.serverGaveUp(), reset);
  }

  /** Sends a segment to the server; `atServer` runs where it arrives. */
  sendToServer(atServer: () => void): void {
    this.toServer.send(atServer);
  }

  /** Sends a segment to the client; `atClient` runs where it arrives, unless the client's end closed. */
  sendToClient(atClient: () => void): void {
    this.toClient.send(() => {
      this.lastHeardUs = this.path.sim.nowUs;
      atClient();
    });
  }

  /** The server process died: its kernel sends FIN behind whatever it had sent. */
  serverDied(): void {
    if (this.serverGone) return;
    this.serverGone = true;
    this.sendToClient(() => this.closeClient('connection closed by the server'));
  }

  /** A segment reached a server end that is gone: its kernel answers RST. */
  resetFromServer(): void {
    this.toClient.sendControl(() => this.closeClient('read ECONNRESET'));
  }

  /** The client closes its end (ioredis on a connect timeout, or any close above). */
  closeClient(reason: string): void {
    if (this.clientClosed) return;
    this.clientClosed = true;
    this.onClientClose(reason);
  }

  /**
   * kill -9 of the client process: its kernel closes the socket. What the process had sent
   * still reaches the server, in order (the kernel keeps retransmitting it, its FIN behind
   * it); nothing reaches the process any more. The connection is closed once that data is
   * through (or given up on), at once when there is none.
   */
  clientProcessDied(): void {
    if (this.clientClosed || this.clientDead) return;
    this.clientDead = true;
    const close = (): void => this.closeClient('client process gone');
    if (this.toServer.drained) close();
    else this.toServer.onDrained = close;
  }

  /** The server's kernel gave up on a reply: the client hears of it by keepalive, or never sooner. */
  private serverGaveUp(): void {
    this.serverGone = true;
    this.toClient.discard();
    const { sim } = this.path;
    const firstProbeUs = this.lastHeardUs + KEEPALIVE_TIME_US;
    for (let i = 0; i <= KEEPALIVE_PROBES; i++) {
      const atUs = firstProbeUs + i * KEEPALIVE_INTERVAL_US;
      sim.scheduleAt(atUs, () => {
        if (this.clientClosed || this.clientDead || this.path.sim.nowUs - this.lastHeardUs < KEEPALIVE_TIME_US) return;
        if (i === KEEPALIVE_PROBES) this.closeClient('read ETIMEDOUT (keepalive)');
        else this.toServer.sendControl(() => this.resetFromServer());
      });
    }
  }
}

/**
 * A handshake from `client` to `server`. When a SYN reaches the server, `listening` says
 * whether a process listens there (false: its kernel answers RST); when the answer is back,
 * `register` hands the new connection to the server process (false: it died meanwhile) and
 * `onResult` gets it, or null when refused. A SYN or its answer lost to a partition is sent
 * again after 1 s, 3 s, 7 s, ... The returned function abandons the handshake (the caller's
 * connect timeout).
 */
export function dialTcp(
  path: TcpPath,
  client: string,
  server: string,
  listening: () => boolean,
  register: (connection: TcpConnection) => boolean,
  onResult: (connection: TcpConnection | null) => void,
): () => void {
  const { sim, fabric, latency, rng } = path;
  const startUs = sim.nowUs;
  let settled = false;
  const trip = (): Micros => sample(latency, rng) + fabric.delayBetween(client, server);
  // SYN number k; its timer arms the next one, while the handshake is still under way.
  const syn = (k: number): void => {
    sim.scheduleAt(startUs + SYN_RETRY_OFFSETS_US[k], () => {
      if (settled) return;
      sim.scheduleAt(sim.nowUs + trip(), () => {
        if (settled) return;
        if (fabric.rejects(client, server)) {
          // A reject partition answers the SYN with RST: refused, as where no process listens.
          settled = true;
          onResult(null);
          return;
        }
        if (fabric.isCut(client, server)) return;
        const up = listening();
        sim.scheduleAt(sim.nowUs + trip(), () => {
          if (settled || fabric.isCut(client, server)) return;
          settled = true;
          const connection = up ? new TcpConnection(path, client, server) : null;
          onResult(connection !== null && register(connection) ? connection : null);
        });
      });
      if (k + 1 < SYN_RETRY_OFFSETS_US.length) syn(k + 1);
    });
  };
  syn(0);
  return () => {
    settled = true;
  };
}
