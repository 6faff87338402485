/**
 * What the clients of a real run sent on lock keys, for the key watch (key-watch.ts): whose
 * value a key holds and whose command changed it. An owner is an identity the commands carry
 * (a token, Redisson's `<uuid>:<threadId>` hash field): the request that wrote the value holds
 * it; a later command that carries the same value (a renewal's PEXPIRE, an unlock) changes no
 * holder. A constant value (`SET key "locked"`) names the open SET that said OK.
 */
import { lockKeyAttribution } from '../../own-code/key-attribution.js';

/** One command a client sent that names a lock key. */
interface LedgerEntry {
  tag: string;
  /** The node it went to (null: the primary Sentinel names, whichever that is). */
  node: string | null;
  command: string[];
  keys: string[];
  seq: number;
  /** The reply once it came (held at the barrier until `delivered`). */
  reply?: unknown;
  delivered: boolean;
  /** Resolves when the command's outcome came (a reply or a failure). */
  settled: Promise<void>;
  settle: () => void;
}

/**
 * Delivered deletes kept per key, to name a compare-and-delete's sender by the token it
 * carried when its reply already went through (see CommandLedger.deleterOf).
 */
const RECENT_DELETES_PER_KEY = 32;
/** Commands that can delete a key (a script may: EVAL, EVALSHA, FCALL). */
const DELETING = new Set(['DEL', 'UNLINK', 'EVAL', 'EVALSHA', 'FCALL', 'GETDEL']);

/** The attribution of the built-in locks: a key is a lock key when it is `lock:<sku>` itself. */
const PLAIN_LOCK_KEYS = lockKeyAttribution(null);

/**
 * The lock keys a command names (EVAL/EVALSHA/FCALL: numkeys then keys; else the first
 * argument), as the Redis keys they are; `lockKeyOf` tells a lock key (default: `lock:<sku>`).
 */
export function lockKeysOf(command: readonly string[], lockKeyOf: (key: string) => string | null = PLAIN_LOCK_KEYS): string[] {
  const name = command[0]?.toUpperCase() ?? '';
  let keys: readonly string[];
  if (name === 'EVAL' || name === 'EVALSHA' || name === 'EVAL_RO' || name === 'EVALSHA_RO' || name === 'FCALL' || name === 'FCALL_RO') {
    const n = Number(command[2]);
    keys = Number.isInteger(n) && n > 0 ? command.slice(3, 3 + n) : [];
  } else if (name === 'DEL' || name === 'UNLINK' || name === 'EXISTS') {
    keys = command.slice(1);
  } else {
    keys = command.slice(1, 2);
  }
  return keys.filter((k) => lockKeyOf(k) !== null);
}

/** What the clients sent on lock keys, to tell whose value a key holds and whose command changed it. */
export class CommandLedger {
  private seq = 0;
  /** key -> commands not yet delivered to the engine. */
  private readonly open = new Map<string, LedgerEntry[]>();
  /** key -> argument -> the last request that sent it with this key. */
  private readonly lastSender = new Map<string, Map<string, string>>();
  /** key -> the last deleting commands delivered with a positive count, oldest first. */
  private readonly recentDeletes = new Map<string, LedgerEntry[]>();

  /** `lockKeyOf` tells which keys are lock keys (see lockKeysOf). */
  constructor(private readonly lockKeyOf: (key: string) => string | null = PLAIN_LOCK_KEYS) {}

  /** Notes a command; null when it names no lock key. */
  sent(tag: string, command: readonly string[], node: string | null = null): LedgerEntry | null {
    const keys = lockKeysOf(command, this.lockKeyOf);
    if (keys.length === 0) return null;
    let settle = (): void => undefined;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const entry: LedgerEntry = { tag, node, command: [...command], keys, seq: this.seq++, delivered: false, settled, settle };
    for (const key of keys) {
      let list = this.open.get(key);
      if (!list) this.open.set(key, (list = []));
      list.push(entry);
      let senders = this.lastSender.get(key);
      if (!senders) this.lastSender.set(key, (senders = new Map()));
      for (const arg of command.slice(1)) if (arg !== key) senders.set(arg, tag);
    }
    return entry;
  }

  /** The command's reply came (before the barrier lets it through). */
  replied(entry: LedgerEntry, reply: unknown): void {
    entry.reply = reply;
    entry.settle();
  }

  /**
   * Resolves when every command open on `key` now has its outcome, or after `timeoutMs`: a
   * record waits for the replies that tell whose command made the change (they come through
   * the proxies, a little after the direct connection's notification).
   */
  outcomes(node: string, key: string, timeoutMs: number): Promise<void> {
    const open = this.openOn(node, key);
    if (open.every((e) => e.reply !== undefined)) return Promise.resolve();
    return Promise.race([Promise.all(open.map((e) => e.settled)).then(() => undefined), delay(timeoutMs)]);
  }

  /**
   * Whether the record of a change needs the open commands' replies to name whose it was:
   * when the open commands that could have made it come from two requests or more (a
   * constant value many requests SET, or deletes by several). A token names its request
   * alone, so its record waits for nothing (Redlock's replies are not held by unanswered
   * commands of a partitioned client).
   */
  ambiguous(node: string, key: string, values: readonly string[], deleting: boolean): boolean {
    const open = this.openOn(node, key).filter((e) =>
      deleting ? DELETING.has(e.command[0].toUpperCase()) : e.command.some((a, i) => i > 0 && values.includes(a)),
    );
    return new Set(open.map((e) => e.tag)).size > 1;
  }

  /** The undelivered commands on `key` that went to `node`. */
  private openOn(node: string, key: string): LedgerEntry[] {
    return (this.open.get(key) ?? []).filter((e) => e.node === null || e.node === node);
  }

  delivered(entry: LedgerEntry): void {
    entry.delivered = true;
    entry.settle();
    const counted = DELETING.has(entry.command[0].toUpperCase()) && typeof entry.reply === 'number' && entry.reply > 0;
    for (const key of entry.keys) {
      const list = this.open.get(key);
      if (list) {
        const i = list.indexOf(entry);
        if (i >= 0) list.splice(i, 1);
      }
      if (!counted) continue;
      let recent = this.recentDeletes.get(key);
      if (!recent) this.recentDeletes.set(key, (recent = []));
      recent.push(entry);
      if (recent.length > RECENT_DELETES_PER_KEY) recent.shift();
    }
  }

  /**
   * The request that owns `values` (a string's value, or a hash's fields) on `key`: among the
   * undelivered commands carrying one of them, the one whose reply was OK (or a Redisson lock
   * script's nil), else the earliest;
   * with none undelivered, the last request that sent one of them; null if nobody did.
   */
  ownerOf(node: string, key: string, values: readonly string[]): string | null {
    const carrying = this.openOn(node, key).filter((e) => e.command.some((a, i) => i > 0 && values.includes(a)));
    // SET's OK, or the nil of Redisson's lock script (RedissonLock.tryLockInnerAsync: nil when taken).
    const ok = carrying.find((e) => e.reply === 'OK') ?? carrying.find((e) => e.reply === null);
    if (ok) return ok.tag;
    if (carrying.length > 0) return carrying[0].tag;
    const senders = this.lastSender.get(key);
    for (const v of values) {
      const tag = senders?.get(v);
      if (tag !== undefined) return tag;
    }
    return null;
  }

  /**
   * The request whose command deleted `key`: among the undelivered deleting commands on it,
   * those that carry one of the deleted values (`previousValues`: a compare-and-delete script
   * sends the token it compares, and only its holder has that token) if any do, and of these
   * the one whose reply was a positive count (DEL 1, a compare-and-delete script's 1), else the
   * earliest; '' when none is open (the server itself). The token comes first because it
   * needs no reply: under load a reply can come later than the record's wait for it.
   * When no open command carries a deleted value, the latest delivered delete that carried
   * one and counted a key is the deleter: under load the holder's reply can pass the barrier
   * before the record is made, while the turned-away requests' compare-and-deletes (each with
   * its own token) are still open and would otherwise be named.
   */
  deleterOf(node: string, key: string, previousValues: readonly string[] = []): string {
    const deleting = this.openOn(node, key).filter((e) => DELETING.has(e.command[0].toUpperCase()));
    const carries = (e: LedgerEntry): boolean => e.command.some((a, i) => i > 0 && a !== key && previousValues.includes(a));
    const carrying = previousValues.length === 0 ? [] : deleting.filter(carries);
    if (carrying.length === 0 && previousValues.length > 0) {
      const recent = (this.recentDeletes.get(key) ?? []).filter((e) => (e.node === null || e.node === node) && carries(e));
      if (recent.length > 0) return recent[recent.length - 1].tag;
    }
    const list = carrying.length > 0 ? carrying : deleting;
    const counted = list.find((e) => typeof e.reply === 'number' && e.reply > 0);
    return (counted ?? list[0])?.tag ?? '';
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms)); // lock-sim: wall-clock ok (the barrier's timeout on a real server)
}
