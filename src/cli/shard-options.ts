/**
 * Which slice of the seeds this process runs. Three spellings, one meaning:
 * - `--shard k/n`, counting from 1 (as before);
 * - `--shard-index i --shard-count n`, counting from 0, as the engines number their workers:
 *   a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (0 to completions-1,
 *   https://kubernetes.io/docs/concepts/workloads/controllers/job/#completion-mode), an AWS
 *   Batch array job's AWS_BATCH_JOB_ARRAY_INDEX (0 to size-1,
 *   https://docs.aws.amazon.com/batch/latest/userguide/array_jobs.html), a GitHub Actions
 *   matrix of 0..n-1;
 * - `--shard-index env --shard-count n`: the index read from whichever of those two variables
 *   is set.
 * `--shard-index i` is the same slice as `--shard (i+1)/n`.
 */
import { InvalidArgumentError, Option } from 'commander';
import { parseShard } from '../scenario/seeds.js';
import { UsageError } from './option-parsers.js';

type Shard = { k: number; n: number };

/** The environment variables `--shard-index env` reads, in this order. */
const SHARD_INDEX_VARIABLES = ['JOB_COMPLETION_INDEX', 'AWS_BATCH_JOB_ARRAY_INDEX'] as const;

const MAX_SHARDS = 10_000;

export interface ShardOptions {
  shard?: Shard;
  shardIndex?: string;
  shardCount?: number;
}

/** The three options, for a command's .addOption(); `what` is sliced ("the seeds"). */
export function shardOptions(what: string): Option[] {
  return [
    new Option('--shard <k/n>', `run only the k-th of n slices of ${what}, counting from 1 (with --output; combine with merge)`).argParser(parseShardOption),
    new Option('--shard-index <i>', `the same counting from 0, with --shard-count: slice i of n; "env" reads ${SHARD_INDEX_VARIABLES.join(' or ')}`),
    new Option('--shard-count <n>', 'how many slices --shard-index counts').argParser(parseShardCount),
  ];
}

function parseShardOption(value: string): Shard {
  const r = parseShard(value);
  if (!r.ok) throw new InvalidArgumentError(r.message);
  return r.value;
}

function parseShardCount(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > MAX_SHARDS) throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_SHARDS}, found "${value.slice(0, 40)}"`);
  return Number(value);
}

/** The slice the options name (null: all seeds), or a usage error saying what is missing or out of range. */
export function shardOf(options: ShardOptions, env: NodeJS.ProcessEnv = process.env): Shard | null {
  const { shard, shardIndex, shardCount } = options;
  if (shard !== undefined && (shardIndex !== undefined || shardCount !== undefined)) throw new UsageError('give --shard k/n or --shard-index with --shard-count, not both');
  if (shard !== undefined) return shard;
  if (shardIndex === undefined && shardCount === undefined) return null;
  if (shardIndex === undefined) throw new UsageError('--shard-count needs --shard-index (from 0, or "env")');
  if (shardCount === undefined) throw new UsageError('--shard-index needs --shard-count: how many slices there are');
  const { text, from } = shardIndex === 'env' ? indexFromEnv(env) : { text: shardIndex, from: '--shard-index' };
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${from}: expected a whole number from 0, found "${text.slice(0, 40)}"`);
  const index = Number(text);
  if (index >= shardCount) throw new UsageError(`${from} is ${index}: slices count from 0, so --shard-count ${shardCount} allows 0 to ${shardCount - 1}`);
  return { k: index + 1, n: shardCount };
}

function indexFromEnv(env: NodeJS.ProcessEnv): { text: string; from: string } {
  const set = SHARD_INDEX_VARIABLES.filter((v) => env[v] !== undefined && env[v] !== '');
  if (set.length === 0) throw new UsageError(`--shard-index env: neither ${SHARD_INDEX_VARIABLES.join(' nor ')} is set (give the index itself outside a Kubernetes Indexed Job or an AWS Batch array job)`);
  if (set.length > 1 && env[set[0]] !== env[set[1]]) throw new UsageError(`--shard-index env: ${set.map((v) => `${v}=${env[v]}`).join(' and ')} disagree`);
  return { text: env[set[0]]!, from: set[0] };
}
