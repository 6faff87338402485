/**
 * WAIT numreplicas timeout (redis 7.0.15 src/replication.c waitCommand,
 * replicationCountAcksByOffset, processClientsWaitingReplicas): the blocked WAITs of one
 * node, answered when enough of its listed replicas acknowledged the offset or at their
 * timeout. A part of RedisNode (node.ts), which it reads through `WaitHost`.
 */
import type { Simulation } from '../../engine/simulation.js';
import type { Blocked, BlockedClients } from './blocking.js';
import { ERR_NOT_INTEGER, parseInt64, RedisErrorReply } from './reply.js';
import { answer, type ReplyTo } from './reply-to.js';
import type { ReplicationLink } from './replication.js';
import type { ClientSession } from './session.js';

const ERR_WAIT_ON_REPLICA = new RedisErrorReply(
  'ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to replicas are just local and are not propagated.',
);

/** What WAIT reads of its node. */
interface WaitHost {
  readonly role: 'primary' | 'replica';
  readonly replicationOffset: number;
  readonly replicaLinks: readonly ReplicationLink[];
}

/** A blocked WAIT; it is answered once, then leaves `waits`. */
interface WaitRequest {
  targetOffset: number;
  needed: number;
  reply: ReplyTo;
}

/** The WAITs of one node that have not been answered yet. */
export class ReplicaWaits {
  private waits: WaitRequest[] = [];

  constructor(
    private readonly host: WaitHost,
    private readonly sim: Simulation,
    private readonly blocked: BlockedClients,
  ) {}

  /** kill -9: the blocked WAITs are gone, unanswered. */
  clear(): void {
    this.waits = [];
  }

  /** @internal a replica acknowledged `offset`; wake WAITs that are now satisfied. */
  onReplicaAck(): void {
    if (this.waits.length === 0) return;
    const answered = this.waits.filter((w) => this.ackedReplicas(w.targetOffset) >= w.needed);
    this.waits = this.waits.filter((w) => !answered.includes(w));
    for (const w of answered) answer(w.reply, this.ackedReplicas(w.targetOffset));
  }

  /** Listed replicas that acknowledged `offset` (redis 7.0.15 replicationCountAcksByOffset). */
  private ackedReplicas(offset: number): number {
    let n = 0;
    for (const link of this.host.replicaLinks) if (link.listed && link.ackedOffset >= offset) n++;
    return n;
  }

  /**
   * WAIT numreplicas timeout, checked in the order of redis 7.0.15 `replication.c` waitCommand.
   * `noBlock` (inside EXEC) answers the count at once.
   */
  wait(args: readonly string[], replyIn: ReplyTo, noBlock: boolean, session?: ClientSession): void {
    if (this.host.role === 'replica') return answer(replyIn, ERR_WAIT_ON_REPLICA);
    const needed = parseInt64(args[1]);
    if (needed === null) return answer(replyIn, ERR_NOT_INTEGER);
    // timeout.c getTimeoutFromObjectOrReply.
    const timeoutMs = parseInt64(args[2]);
    if (timeoutMs === null) return answer(replyIn, new RedisErrorReply('ERR timeout is not an integer or out of range'));
    if (timeoutMs < 0n) return answer(replyIn, new RedisErrorReply('ERR timeout is negative'));
    const targetOffset = this.host.replicationOffset;
    const acked = this.ackedReplicas(targetOffset);
    if (acked >= needed || noBlock) return answer(replyIn, acked);
    let reply = replyIn;
    if (session !== undefined) {
      // The session is held until WAIT answers (its later commands wait), and CLIENT UNBLOCK or a demotion may answer it.
      const b: Blocked = {
        session,
        tag: '',
        reply: replyIn,
        list: null,
        zset: null,
        wait: { timeoutReply: () => this.ackedReplicas(targetOffset), cancel: () => (this.waits = this.waits.filter((w) => w !== request)) },
        deadlineMs: null,
      };
      this.blocked.blockWait(b);
      reply = (r) => {
        this.blocked.release(b);
        answer(replyIn, r);
        this.blocked.runFreed();
      };
    }
    const request: WaitRequest = { targetOffset, needed: Number(needed), reply };
    this.waits.push(request);
    // WAIT with timeout 0 blocks forever.
    if (timeoutMs > 0n) this.waitTimeout(request, Number(timeoutMs) * 1000);
  }

  /**
   * A blocked WAIT's timeout: it answers the count then. One answered already, or dropped by a
   * crash, is no longer in `waits`. A method of its own: a closure made in wait() had every
   * WAIT allocate a context for what it captures, blocked or not.
   */
  private waitTimeout(request: WaitRequest, afterUs: number): void {
    this.sim.schedule(afterUs, () => {
      if (!this.waits.includes(request)) return;
      this.waits = this.waits.filter((w) => w !== request);
      answer(request.reply, this.ackedReplicas(request.targetOffset));
    });
  }
}
