/**
 * Redis Cluster failure detection and replica failover, node by node on the cluster bus
 * (redis 7.0.15 src/cluster.c; 7.2.4 times it the same, its one change here being a hidden
 * cluster-ping-interval that defaults to node-timeout / 2; 7.4 moved this code to
 * src/cluster_legacy.c). The
 * scenario's shard (redis-0 and its replicas) is one of `masters` shards; the other masters
 * and their replicas (as many as ours) only exist on the bus, on the deciders' side of the
 * network.
 *
 * - clusterCron runs every 100 ms (plus up to 1 ms, failover.ts timerGapUs) on every node
 *   (hz 10). Every 10th run a node PINGs, of 5
 *   nodes drawn at random, the one with the oldest PONG; and it PINGs any node whose last
 *   PONG is older than node-timeout / 2.
 * - PFAIL: a PING unanswered (and no other traffic from the node) for longer than
 *   node-timeout. The clock starts at the first PING sent after the node went silent, so
 *   PFAIL comes node-timeout plus the wait for that PING after the failure.
 * - Every PING and PONG carries gossip: max(3, nodes / 10) random nodes and every node its
 *   sender has in PFAIL, with the sender's flags and PONG time for it (in whole seconds).
 *   A report of PFAIL from a master counts for 2 x node-timeout.
 * - FAIL: a node that has the master in PFAIL itself and hears, by gossip, PFAIL reports
 *   from a majority of the masters (itself included if it is one) marks it FAIL and
 *   broadcasts it. This is the PFAIL -> FAIL gossip time.
 * - The master's replicas then wait 500 ms + random(0..500) + rank x 1000 ms (checked at
 *   their next cron), ask the masters for votes, and the first with a majority takes over;
 *   its PONG tells every node, the old master included when it hears it, to follow it.
 * - A master that no longer reaches a majority of masters (all in PFAIL or FAIL from its own
 *   point of view) sets its cluster state to fail and refuses keyed commands, reads too (CLUSTERDOWN); back in
 *   the majority it waits min(node-timeout, 5 s) before accepting them again.
 *
 * Simplified (docs/model/failover.md says so): a message sent across a partition is lost (no TCP
 * retransmission); a link whose PING has been unanswered for node-timeout / 2 is remade, and
 * a connect that cannot get through is retried at every cron and succeeds at the first one
 * after the partition heals (no SYN backoff). Not modelled: handshakes, slot migration,
 * manual failover, replica migration, pub/sub and module messages; a replica's rank uses the
 * true replication offsets.
 *
 * This folder: cluster.ts, the cluster's setup and what the deployment tells it, composed of
 * parts that share one state object (state.ts: the bus nodes of bus-node.ts, each with its
 * flags, epochs and view of the others; the quorum) and receive only it and the parts they
 * call: bus.ts (connections, PING and PONG, gossip), detection.ts (PFAIL -> FAIL, the cluster
 * state), election.ts (replica failover), messages.ts (what a node does with a message),
 * cron.ts (clusterCron and when it is next due). constants.ts holds cluster.h's periods and
 * multipliers. This file is the entry: nothing in the folder imports it.
 */
export { ClusterFailover } from './cluster.js';
