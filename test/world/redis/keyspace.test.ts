/**
 * One node's keyspace: expiry by the node's clock as Redis 7 judges it (redis 7.0.15 db.c
 * keyIsExpired: expired when now > deadline; expireIfNeeded: a replica answers an expired key
 * as missing but keeps it until the primary's DEL arrives), and the changes it reports, which
 * replication and the lock history are built from.
 */
import { describe, expect, it } from 'vitest';
import { cloneEntry, Keyspace, type KeyChange } from '../../../src/world/redis/keyspace.js';

const T0 = 1_000_000;

function keyspace(role: 'primary' | 'replica' = 'primary') {
  const clock = { ms: T0 };
  const ks = new Keyspace(() => clock.ms);
  ks.deletesExpiredKeys = role === 'primary';
  const changes: KeyChange[] = [];
  ks.onChange = (c) => changes.push({ ...c }); // the keyspace reuses its change object
  /** Changes as "cause key by:holder-before", for compact expectations. */
  const log = (): string[] => changes.map((c) => `${c.cause} ${c.key} by:${c.byTag} was:${c.previousHolder ?? '-'}`);
  return { clock, ks, changes, log };
}

describe('expiry by the node clock', () => {
  it('a key is live at its deadline and expired one millisecond after (now > deadline)', () => {
    const { ks, clock } = keyspace();
    ks.write('k', 'v', T0 + 100, 'r1');
    clock.ms = T0 + 100;
    expect(ks.lookup('k')?.value).toBe('v');
    clock.ms = T0 + 101;
    expect(ks.lookup('k')).toBeUndefined();
  });

  it('a primary deletes the expired key when it is looked up, reported as an expiry by the node', () => {
    const { ks, clock, log } = keyspace();
    ks.write('k', 'v', T0 + 100, 'r1');
    clock.ms = T0 + 101;
    expect(ks.lookup('k')).toBeUndefined();
    expect(ks.rawGet('k')).toBeUndefined();
    expect(ks.size).toBe(0);
    expect(log()).toEqual(['write k by:r1 was:-', 'expire k by: was:r1']);
  });

  it('a replica answers an expired key as missing but keeps it, reporting nothing', () => {
    const { ks, clock, log } = keyspace('replica');
    ks.rawSet('k', { value: 'v', expireAtMs: T0 + 100, holderTag: 'r1' });
    clock.ms = T0 + 101;
    expect(ks.lookup('k')).toBeUndefined();
    expect(ks.rawGet('k')?.value).toBe('v');
    expect(ks.size).toBe(1);
    expect(log()).toEqual(['sync k by:r1 was:-']);
  });

  it('a key without a deadline never expires', () => {
    const { ks, clock } = keyspace();
    ks.write('k', 'v', null, 'r1');
    clock.ms = Number.MAX_SAFE_INTEGER;
    expect(ks.lookup('k')?.value).toBe('v');
  });

  it('setExpire to a deadline already passed deletes the key on a primary (an expiry by that request)', () => {
    const { ks, clock, log } = keyspace();
    ks.write('k', 'v', null, 'r1');
    clock.ms = T0 + 10;
    ks.setExpire('k', T0 + 9, 'r2');
    expect(ks.rawGet('k')).toBeUndefined();
    expect(log()).toEqual(['write k by:r1 was:-', 'expire k by:r2 was:r1']);
  });

  it('setExpire to the current millisecond keeps the key (not yet past), reported as a TTL change', () => {
    const { ks, log } = keyspace();
    ks.write('k', 'v', null, 'r1');
    ks.setExpire('k', T0, 'r2');
    expect(ks.rawGet('k')?.expireAtMs).toBe(T0);
    expect(log()).toEqual(['write k by:r1 was:-', 'ttl k by:r2 was:r1']);
  });

  it('on a replica setExpire to a passed deadline keeps the key (checkAlreadyExpired is false on a replica)', () => {
    const { ks, log } = keyspace('replica');
    ks.rawSet('k', { value: 'v', expireAtMs: null, holderTag: 'r1' });
    ks.setExpire('k', T0 - 1, 'r2');
    expect(ks.rawGet('k')?.expireAtMs).toBe(T0 - 1);
    expect(log()).toEqual(['sync k by:r1 was:-', 'ttl k by:r2 was:r1']);
  });

  it('setExpire to null removes the TTL; of a missing key does nothing', () => {
    const { ks, clock, changes } = keyspace();
    ks.write('k', 'v', T0 + 5, 'r1');
    ks.setExpire('k', null, 'r1');
    clock.ms = T0 + 1000;
    expect(ks.lookup('k')?.value).toBe('v');
    const before = changes.length;
    ks.setExpire('missing', T0 + 5, 'r1');
    expect(changes.length).toBe(before);
    expect(ks.rawGet('missing')).toBeUndefined();
  });
});

describe('writes and their reports', () => {
  it('a write over a live key names the previous holder; over an expired one the key expired first', () => {
    const { ks, clock, log } = keyspace();
    ks.write('k', 'a', T0 + 10, 'r1');
    ks.write('k', 'b', T0 + 10, 'r2');
    clock.ms = T0 + 11;
    ks.write('k', 'c', null, 'r3');
    expect(log()).toEqual(['write k by:r1 was:-', 'write k by:r2 was:r1', 'expire k by: was:r2', 'write k by:r3 was:-']);
    expect(ks.rawGet('k')).toEqual({ value: 'c', expireAtMs: null, holderTag: 'r3' });
  });

  it('touched makes the writer the holder of an existing key and reports it; a missing key is left alone', () => {
    const { ks, log, changes } = keyspace();
    ks.write('h', new Map([['f', '1']]), null, 'r1');
    ks.touched('h', 'r2');
    expect(ks.rawGet('h')?.holderTag).toBe('r2');
    expect(log()).toEqual(['write h by:r1 was:-', 'write h by:r2 was:r1']);
    expect(changes[1].entry).toBe(ks.rawGet('h'));
    ks.touched('nokey', 'r3');
    expect(changes.length).toBe(2);
    expect(ks.rawGet('nokey')).toBeUndefined();
  });

  it('remove answers whether the key was there and reports the cause and the holder it had', () => {
    const { ks, log } = keyspace();
    ks.write('k', 'v', null, 'r1');
    expect(ks.remove('k', 'delete', 'r2')).toBe(true);
    expect(ks.remove('k', 'delete', 'r2')).toBe(false);
    expect(log()).toEqual(['write k by:r1 was:-', 'delete k by:r2 was:r1']);
  });

  it('rawSet (replication) stores or deletes without expiring, reported as a sync by the holder', () => {
    const { ks, clock, log, changes } = keyspace();
    clock.ms = T0 + 50;
    ks.rawSet('k', { value: 'v', expireAtMs: T0, holderTag: 'r1' });
    expect(ks.rawGet('k')?.value).toBe('v');
    ks.rawSet('k', undefined);
    expect(ks.rawGet('k')).toBeUndefined();
    expect(ks.keys()).toEqual([]);
    expect(ks.size).toBe(0);
    expect(log()).toEqual(['sync k by:r1 was:-', 'sync k by: was:r1']);
    expect(changes[1].entry).toBeUndefined();
  });

  it('clear drops every key, each reported as a sync', () => {
    const { ks, log } = keyspace();
    ks.write('a', '1', null, 'r1');
    ks.write('b', '2', null, 'r2');
    ks.clear();
    expect(ks.size).toBe(0);
    expect(ks.keys()).toEqual([]);
    expect(log().slice(2)).toEqual(['sync a by: was:r1', 'sync b by: was:r2']);
  });

  it('keys lists every stored key, expired ones a replica keeps included', () => {
    const { ks, clock } = keyspace('replica');
    ks.rawSet('a', { value: '1', expireAtMs: T0, holderTag: '' });
    ks.rawSet('b', { value: '2', expireAtMs: null, holderTag: '' });
    clock.ms = T0 + 1;
    expect(ks.keys()).toEqual(['a', 'b']);
  });

  it('works without a listener', () => {
    const ks = new Keyspace(() => T0);
    ks.write('k', 'v', null, 'r1');
    expect(ks.remove('k', 'delete', 'r1')).toBe(true);
  });
});

describe('the key looked up last (Keyspace remembers its entry)', () => {
  it('a lookup after each kind of change of that key sees the change', () => {
    const { ks } = keyspace();
    expect(ks.lookup('k')).toBeUndefined();
    ks.write('k', 'v1', null, 'r1');
    expect(ks.lookup('k')?.value).toBe('v1');
    ks.write('k', 'v2', null, 'r2');
    expect(ks.lookup('k')).toMatchObject({ value: 'v2', holderTag: 'r2' });
    expect(ks.remove('k', 'delete', 'r2')).toBe(true);
    expect(ks.lookup('k')).toBeUndefined();
    expect(ks.remove('k', 'delete', 'r2')).toBe(false);
    ks.rawSet('k', { value: 'v3', expireAtMs: null, holderTag: '' });
    expect(ks.lookup('k')?.value).toBe('v3');
    ks.rawSet('k', undefined);
    expect(ks.lookup('k')).toBeUndefined();
    expect(ks.size).toBe(0);
  });

  it('a lookup of another key in between changes nothing of either', () => {
    const { ks } = keyspace();
    ks.write('a', '1', null, 'r1');
    ks.write('b', '2', null, 'r2');
    expect(ks.lookup('a')?.value).toBe('1');
    ks.remove('b', 'delete', 'r2');
    expect(ks.lookup('a')?.value).toBe('1');
    expect(ks.lookup('b')).toBeUndefined();
    ks.clear();
    expect(ks.lookup('a')).toBeUndefined();
    expect(ks.keys()).toEqual([]);
  });
});

describe('cloneEntry (what replication ships)', () => {
  it('copies a hash, so later changes on the primary do not reach the replica through it', () => {
    const hash = new Map([['f', '1']]);
    const copy = cloneEntry({ value: hash, expireAtMs: 5, holderTag: 'r1' });
    hash.set('f', '2');
    expect(copy).toEqual({ value: new Map([['f', '1']]), expireAtMs: 5, holderTag: 'r1' });
  });

  it('copies a string entry field for field', () => {
    const entry = { value: 'v', expireAtMs: null, holderTag: 'r1' };
    const copy = cloneEntry(entry);
    expect(copy).toEqual(entry);
    expect(copy).not.toBe(entry);
  });
});
