/**
 * Whether output is coloured, in this order: --color / --no-color; FORCE_COLOR (set: on,
 * unless it is 0 or false); NO_COLOR (set and not empty: off, https://no-color.org); else on
 * a terminal only. FORCE_COLOR over NO_COLOR is Node's own rule (Node.js CLI docs,
 * "FORCE_COLOR=[1, 2, 3]": it takes precedence over NO_COLOR and NODE_DISABLE_COLORS), and
 * the flag over both is no-color.org's ("user-level configuration files and per-instance
 * command-line arguments should override").
 */
import { Chalk, type ChalkInstance } from 'chalk';
import type { Io } from './commands/context.js';

export function colorWanted(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean | undefined): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.toLowerCase());
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY === true;
}

/** The chalk of this command's output (basic 16 colours: all the reports use). */
export function colorFor(io: Io): ChalkInstance {
  return new Chalk({ level: colorWanted(io.color, io.env ?? process.env, io.stdoutIsTTY) ? 1 : 0 });
}
