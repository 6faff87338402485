/**
 * The part of the server versions (redis.server) that can be measured here: redis-server
 * 7.0.15 answers the newer servers' compare commands and SET options with its unknown-command
 * and syntax errors, and the model on redis-7.0 (its default) answers them with the same bytes,
 * on the command line, inside MULTI and inside a Lua script (harness.ts compares every reply
 * and the keys after every step). What redis-8.4, valkey-8.1 and valkey-9.0 answer is modelled
 * from their sources and documentation (test/world/redis/compare-commands.test.ts) and is not
 * measured: no such server runs here.
 */
import { expect, it } from 'vitest';
import type { Step } from './harness.js';
import { withRealRedis } from './setup.js';

const c = (...args: string[]): Step => ({ args });
const multi = (...commands: string[][]): Step => ({ multi: commands });
/** A lock token longer than the 128 characters processCommand quotes of the arguments. */
const LONG = 'x'.repeat(150);

type Case = [title: string, keys: string[], steps: Step[]];

const CASES: Case[] = [
  ['DELEX in every form is an unknown command, its arguments quoted up to 128 characters; the lock stays', ['lock'], [
    c('SET', 'lock', 'tok', 'NX', 'PX', '90000'), c('DELEX', 'lock', 'IFEQ', 'tok'), c('delex', 'lock'), c('DELEX', 'lock', 'IFNE', 'x'),
    c('DELEX', 'lock', 'IFDEQ', 'b6acb9d84a38ff74'), c('DELEX', 'lock', 'IFDNE', '0000000000000000'), c('DELEX', 'lock', 'IFEQ', LONG),
    c('DELEX'), c('GET', 'lock'),
  ]],
  ['DIGEST and DELIFEQ are unknown commands too', ['k'], [
    c('SET', 'k', 'Hello world'), c('DIGEST', 'k'), c('digest'), c('DELIFEQ', 'k', 'Hello world'), c('DelIfEq', 'k'), c('GET', 'k'),
  ]],
  ['SET IFEQ / IFNE / IFDEQ / IFDNE are syntax errors (with NX, GET or an expiry too), and nothing is written', ['k', 'n'], [
    c('SET', 'k', 'a'), c('SET', 'k', 'b', 'IFEQ', 'a'), c('SET', 'k', 'b', 'ifeq', 'a', 'PX', '90000'), c('SET', 'k', 'b', 'IFNE', 'x'),
    c('SET', 'k', 'b', 'IFDEQ', 'b6acb9d84a38ff74'), c('SET', 'k', 'b', 'IFDNE', '0000000000000000'), c('SET', 'k', 'b', 'IFEQ', 'a', 'GET'),
    c('SET', 'k', 'b', 'NX', 'IFEQ', 'a'), c('SET', 'n', 'v', 'IFNE', 'x'), c('SET', 'k', 'b', 'IFEQ'), c('GET', 'k'),
  ]],
  ['MULTI with DELEX: refused when queued, EXECABORT, the SET before it never runs', ['k'], [
    multi(['SET', 'k', 'v'], ['DELEX', 'k', 'IFEQ', 'v']), multi(['SET', 'k', 'v'], ['SET', 'k', 'w', 'IFEQ', 'v']), c('GET', 'k'),
  ]],
  ['redis.call and redis.pcall of DELEX, DIGEST, DELIFEQ in a script', ['lock'], [
    c('SET', 'lock', 'tok'),
    c('EVAL', "return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])", '1', 'lock', 'tok'),
    c('EVAL', "local r = redis.pcall('DELEX', KEYS[1], 'IFEQ', ARGV[1]) return r['err']", '1', 'lock', 'tok'),
    c('EVAL', "return redis.call('DIGEST', KEYS[1])", '1', 'lock'),
    c('EVAL', "return redis.call('DELIFEQ', KEYS[1], ARGV[1])", '1', 'lock', 'tok'),
    c('EVAL', "return redis.call('SET', KEYS[1], 'x', 'IFEQ', ARGV[1])", '1', 'lock', 'tok'),
    c('GET', 'lock'),
  ]],
];

withRealRedis('redis-server 7.0 against the model on redis-7.0: the newer servers\' compare commands', (conformance) => {
  for (const [title, keys, steps] of CASES) {
    it(title, async () => {
      expect(await conformance().run(steps, keys)).toEqual([]);
    });
  }
});
