/**
 * Redis Sentinel, process by process (redis 7.0.15 src/sentinel.c; 7.2 differs only in
 * configuration and logging, not in anything timed here). Each Sentinel runs its own timer
 * (sentinelTimer) and sees the Redis nodes only through its own connections, so the failover
 * arrives in the phases Sentinel logs:
 *
 * - SDOWN: a PING unanswered for longer than down-after-milliseconds, counted from the
 *   oldest unanswered PING (act_ping_time). A crashed node closes the connection at once;
 *   the reconnect a tick later queues a PING that is never answered, so SDOWN comes about
 *   down-after plus one or two ticks after the kill.
 * - ODOWN: `quorum` Sentinels (this one included) say the master is down, learnt by asking
 *   the others (SENTINEL is-master-down-by-addr) at most once a second per Sentinel.
 * - The Sentinel that reaches ODOWN starts a failover at once in a new epoch and asks for
 *   votes; each Sentinel votes for the first asker of an epoch. A majority of all Sentinels
 *   (and at least `quorum`) elects the leader, one tick later.
 * - The failover state machine moves one state per tick: select the replica, send
 *   REPLICAOF NO ONE, then wait for its INFO to say `role:master`. A replica of a master in
 *   ODOWN or failover gets INFO once its last reply is over a second old (10 s otherwise;
 *   links.ts sendPeriodicCommands). Usually that reply is older at ODOWN, so an INFO
 *   goes at the ODOWN tick, before the promotion, and the next one, a second later, sees it:
 *   the switch 700-1000 ms after the promotion. When the regular 10 s INFO came between the
 *   promotion minus a second and ODOWN, the next one sees it sooner. Measured (100 kills of a
 *   7.0.15 primary after a random wait, docs/model/failover.md): 63 / 888.5 / 970 ms from the
 *   promotion to +switch-master (min / median / max), 8 of 100 under 700 ms; the model gives
 *   75 / 889 / 1051 ms over seeds 1..300, 24 under 700 ms.
 * - The other replicas are pointed at the promoted one (parallel-syncs 1), then
 *   +switch-master. The leader tells the other Sentinels at once (a forced hello carrying
 *   the new configuration epoch); they switch on receipt.
 * - A failover that fails (no leader within min(10 s, failover-timeout), no eligible
 *   replica, a replica that does not turn into a master) is retried no sooner than
 *   2 x failover-timeout after it started. The random 0-999 ms added to that start time
 *   (SENTINEL_MAX_DESYNC) only delays retries, and a Sentinel that voted for another.
 * - The timer runs at a random 10-19 Hz, redrawn after every tick (plus up to 1 ms of event
 *   loop slack, failover.ts timerGapUs), so that Sentinels do not stay in step and split
 *   their votes.
 *
 * Not modelled (docs/model/failover.md says so): TILT mode, the pending-command cap and the recycling of
 * links with late PINGs, TCP retransmission (a message sent across a partition is lost; the
 * next PING after it heals gets through), replica-priority (every replica has the default
 * 100), discovery (the Sentinels know each other and the replicas from the start), scripts,
 * and the time a Sentinel takes to save its configuration (CONFIG REWRITE and fsync when it
 * votes, starts a failover or switches; measured 2-8 ms at the quartiles for the leader's
 * ODOWN tick, which delays its next tick by as much).
 *
 * This folder: group.ts, the Sentinels of a deployment (what they announce); process.ts, one
 * Sentinel's timer and tick, composed of parts that share one state object per Sentinel
 * (state.ts: its view of the master and replicas, its epoch, its peers) and receive only it and
 * the parts they call: links.ts (connections, PING and INFO, REPLICAOF), election.ts (votes),
 * detection.ts (SDOWN, ODOWN), failover-machine.ts (the state machine), config.ts (INFO
 * replies, hellos), schedule.ts (when the next tick is due). view.ts holds what a Sentinel
 * knows of each instance, periods.ts sentinel.c's periods. This file is the entry: nothing in
 * the folder imports it.
 */
export { Sentinels } from './group.js';
