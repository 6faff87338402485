/**
 * A TCP proxy in Node between two real processes (a client and a server, a replica and its
 * primary, a Sentinel and a node): the network faults of a real run. Each direction adds a
 * delay per chunk drawn from a seeded stream (order kept: a chunk never overtakes the one
 * before it), may be stalled (chunks held, delivered on release) and may be cut, in one of
 * the model's two partition modes (world/network.ts PartitionMode): 'silent' holds every byte
 * both ways and sends no reset, so the connections hang until their ends' own timeouts notice
 * (what a dropping link or iptables DROP does; TCP retransmits and delivers once it heals);
 * 'reject' destroys the open connections and refuses new ones until healed (a reset). A
 * server that closes (a SIGKILLed primary) still gets what it had already written to the
 * wire to the other end, its close behind it; only a stalled replication stream (the part
 * still in the primary's output buffer) is lost with it.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { PartitionMode } from '../../spec/faults.js';

type Direction = 'up' | 'down';

export interface ProxyDelays {
  /** Extra delay of a chunk from client to server (`up`) or back (`down`), in microseconds. */
  up: () => number;
  down: () => number;
  /** The delay of the replication stream a primary sends down a replica's connection (default `down`). */
  replication?: () => number;
}

interface Held {
  chunk: Buffer;
  /** When it is delivered, in ms of the monotonic clock. */
  dueMs: number;
}

interface Pipe {
  client: Socket;
  server: Socket;
  held: Record<Direction, Held[]>;
  /** When the last chunk of each direction is due (a later chunk never goes before it). */
  lastDueMs: Record<Direction, number>;
  busy: Record<Direction, boolean>;
  /** A replica's connection (it sent PSYNC): the primary's replication stream flows down it. */
  replication: boolean;
  /** Whose connection this is, once its first commands tell (see `classify`); null until then. */
  path: string | null;
  /** The server closed: deliver what is held down (not a stalled stream), then close. */
  closing: boolean;
  /** One end closed during a silent cut: the other hears of it when the cut heals. */
  closeAfterHeal: boolean;
}

/**
 * Who opened a connection, from the first commands it sends: a Sentinel names its links
 * `sentinel-<id>-cmd` / `-pubsub` (redis 7.0.15 sentinel.c sentinelSetClientName, CLIENT
 * SETNAME right after connecting), a replica announces its port before PSYNC (replication.c
 * syncWithMaster: REPLCONF listening-port <replica-announce-port>). Returns 'sentinel',
 * 'replica:<port>', or null when the bytes so far do not tell.
 */
export function classify(head: string): string | null {
  if (/SETNAME\r\n\$[0-9]+\r\nsentinel-/i.test(head)) return 'sentinel';
  const replica = /REPLCONF\r\n\$[0-9]+\r\nlistening-port\r\n\$[0-9]+\r\n([0-9]+)/i.exec(head);
  if (replica) return `replica:${replica[1]}`;
  return null;
}

/** The bytes of a connection's start that `classify` reads (its handshake is short). */
const CLASSIFY_BYTES = 512;

export class TcpProxy {
  private server: Server | null = null;
  private readonly pipes = new Set<Pipe>();
  /** The whole proxy cut, and how (null: not cut). */
  private cut: PartitionMode | null = null;
  /** Paths (see `classify`) whose connections are cut while the rest of the proxy carries on, and how. */
  private readonly cutPaths = new Map<string, PartitionMode>();
  /** Client sockets accepted during a silent cut, connected upstream when it heals. */
  private readonly parked: Socket[] = [];
  /** The first bytes of each unclassified connection. */
  private readonly heads = new WeakMap<Pipe, string>();
  private readonly stalled: Record<Direction, boolean> = { up: false, down: false };
  /** Holds the replication stream only (the down direction of replicas' connections). */
  private replicationStalled = false;
  /** Extra fixed delay of every chunk (network-delay), in microseconds. */
  extraDelayUs = 0;
  port = 0;

  constructor(
    readonly name: string,
    private targetPort: number,
    private readonly delays: ProxyDelays,
  ) {}

  async listen(port: number): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = port;
  }

  /** Where new connections go (a restarted server keeps its port, so this rarely changes). */
  retarget(port: number): void {
    this.targetPort = port;
  }

  /**
   * Cuts every connection (a mode) or heals (null). Silent: every byte is held both ways and
   * new connections wait unconnected; reject: the connections are destroyed, new ones refused.
   */
  setCut(cut: PartitionMode | null): void {
    this.cut = cut;
    if (cut === 'reject') for (const pipe of [...this.pipes]) this.close(pipe);
    if (cut === null) this.released();
  }

  /**
   * Cuts (a mode) or heals (null) one path of this proxy: the connections `classify` puts on
   * it are held (silent) or closed (reject, and a new one is closed as soon as its first
   * commands show it is on it).
   */
  setPathCut(path: string, cut: PartitionMode | null): void {
    if (cut !== null) this.cutPaths.set(path, cut);
    else this.cutPaths.delete(path);
    if (cut === 'reject') for (const pipe of [...this.pipes]) if (pipe.path === path) this.close(pipe);
    if (cut === null) this.released();
  }

  /** A silent cut healed: held bytes flow, parked connections connect. */
  private released(): void {
    for (const pipe of [...this.pipes]) {
      if (pipe.closeAfterHeal && !this.silenced(pipe)) {
        this.close(pipe);
        continue;
      }
      this.pump(pipe, 'up');
      this.pump(pipe, 'down');
    }
    if (this.cut === null) for (const client of this.parked.splice(0)) this.accept(client);
  }

  /** Whether a silent cut holds this pipe's bytes. */
  private silenced(pipe: Pipe): boolean {
    return this.cut === 'silent' || (pipe.path !== null && this.cutPaths.get(pipe.path) === 'silent');
  }

  /** Holds every chunk of one direction (a stalled stream) until released. */
  setStalled(direction: Direction, stalled: boolean): void {
    this.stalled[direction] = stalled;
    if (!stalled) for (const pipe of this.pipes) this.pump(pipe, direction);
  }

  /** Holds (true) or releases the stream a primary sends its replicas, and nothing else. */
  setReplicationStalled(stalled: boolean): void {
    this.replicationStalled = stalled;
    if (!stalled) for (const pipe of this.pipes) this.pump(pipe, 'down');
  }

  private isStalled(pipe: Pipe, direction: Direction): boolean {
    return this.stalled[direction] || (direction === 'down' && pipe.replication && this.replicationStalled) || this.silenced(pipe);
  }

  /** Chunks waiting in one direction (stalled or not yet due), over every connection. */
  heldChunks(direction: Direction): number {
    let n = 0;
    for (const pipe of this.pipes) n += pipe.held[direction].length;
    return n;
  }

  get connections(): number {
    return this.pipes.size;
  }

  async close(): Promise<void>;
  close(pipe: Pipe): void;
  close(pipe?: Pipe): void | Promise<void> {
    if (pipe) {
      this.pipes.delete(pipe);
      pipe.client.destroy();
      pipe.server.destroy();
      return;
    }
    for (const p of [...this.pipes]) this.close(p);
    for (const c of this.parked.splice(0)) c.destroy();
    const server = this.server;
    this.server = null;
    if (!server) return Promise.resolve();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.cut === 'reject') {
      client.destroy();
      return;
    }
    if (this.cut === 'silent') {
      // The SYN would be lost: the kernel here has completed the handshake, but nothing passes
      // (the client's bytes wait in its socket) until the cut heals.
      client.pause();
      client.on('error', () => client.destroy());
      this.parked.push(client);
      return;
    }
    client.setNoDelay(true);
    const server = connect(this.targetPort, '127.0.0.1');
    server.setNoDelay(true);
    const pipe: Pipe = { client, server, held: { up: [], down: [] }, lastDueMs: { up: 0, down: 0 }, busy: { up: false, down: false }, replication: false, path: null, closing: false, closeAfterHeal: false };
    this.pipes.add(pipe);
    client.on('data', (chunk: Buffer) => this.enqueue(pipe, 'up', chunk));
    server.on('data', (chunk: Buffer) => this.enqueue(pipe, 'down', chunk));
    client.resume();
    // A close (FIN or RST) crosses a silent cut no more than bytes do: it reaches the other
    // end when the cut heals (a replica re-pointed by Sentinel closes its old link, which the
    // cut-off primary must not see).
    const end = (): void => {
      if (this.silenced(pipe)) pipe.closeAfterHeal = true;
      else this.close(pipe);
    };
    client.on('error', end);
    client.on('close', end);
    // The server's end closed (its process killed): what it wrote is on the wire and still
    // arrives, its FIN behind it; a stalled replication stream was still in its buffer.
    const serverGone = (): void => {
      if (pipe.closing || !this.pipes.has(pipe)) return;
      if (this.silenced(pipe)) {
        pipe.closeAfterHeal = true;
        return;
      }
      pipe.closing = true;
      if (pipe.replication && this.replicationStalled) pipe.held.down.length = 0;
      this.closeWhenDrained(pipe);
    };
    server.on('error', serverGone);
    server.on('close', serverGone);
  }

  /** Closes a pipe whose server went away once its held down chunks are delivered. */
  private closeWhenDrained(pipe: Pipe): void {
    if (pipe.held.down.length === 0 || this.isStalled(pipe, 'down')) {
      if (pipe.held.down.length === 0) this.close(pipe);
      return;
    }
    this.pump(pipe, 'down');
  }

  private enqueue(pipe: Pipe, direction: Direction, chunk: Buffer): void {
    // A replica asks for the stream with PSYNC (redis 7.0.15 replication.c slaveTryPartialResynchronization).
    if (direction === 'up' && !pipe.replication && chunk.includes('PSYNC')) pipe.replication = true;
    if (direction === 'up' && pipe.path === null) {
      const head = ((this.heads.get(pipe) ?? '') + chunk.toString('latin1')).slice(0, CLASSIFY_BYTES);
      this.heads.set(pipe, head);
      pipe.path = classify(head) ?? (head.length >= CLASSIFY_BYTES ? 'other' : null);
      if (pipe.path !== null && this.cutPaths.get(pipe.path) === 'reject') {
        this.close(pipe);
        return;
      }
    }
    if (pipe.closing && direction === 'up') return; // the server is gone
    const down = pipe.replication && this.delays.replication ? this.delays.replication : this.delays.down;
    const delayUs = (direction === 'up' ? this.delays.up() : down()) + this.extraDelayUs;
    if (delayUs <= 0 && !this.isStalled(pipe, direction) && pipe.held[direction].length === 0) {
      // Nothing to add: straight through, no extra turn of the event loop.
      (direction === 'up' ? pipe.server : pipe.client).write(chunk);
      return;
    }
    // A chunk never overtakes the one before it (one TCP stream): due at the later of the two.
    const dueMs = Math.max(pipe.lastDueMs[direction], nowMs() + delayUs / 1000);
    pipe.lastDueMs[direction] = dueMs;
    pipe.held[direction].push({ chunk, dueMs });
    this.pump(pipe, direction);
  }

  /** Delivers the held chunks of one direction in order, each when it falls due. */
  private pump(pipe: Pipe, direction: Direction): void {
    if (pipe.busy[direction] || this.isStalled(pipe, direction) || !this.pipes.has(pipe)) return;
    const head = pipe.held[direction][0];
    if (!head) return;
    const deliver = (): void => {
      pipe.busy[direction] = false;
      if (!this.pipes.has(pipe) || this.isStalled(pipe, direction)) return;
      const target = direction === 'up' ? pipe.server : pipe.client;
      const queue = pipe.held[direction];
      const now = nowMs();
      while (queue.length > 0 && queue[0].dueMs <= now + 0.5) target.write((queue.shift() as Held).chunk);
      if (pipe.closing && direction === 'down' && queue.length === 0) {
        pipe.client.end();
        this.close(pipe);
        return;
      }
      this.pump(pipe, direction);
    };
    pipe.busy[direction] = true;
    const waitMs = head.dueMs - nowMs();
    // Under a millisecond: the next turn of the event loop (timers have 1 ms resolution).
    if (waitMs < 1) setImmediate(deliver);
    else setTimeout(deliver, waitMs); // lock-sim: wall-clock ok (the proxy delays real bytes in real time)
  }
}

function nowMs(): number {
  return performance.now(); // lock-sim: wall-clock ok (the proxy delays real TCP traffic in real time)
}
