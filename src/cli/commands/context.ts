/** What every command gets: where to print, where progress may go, how to set the exit code. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Where progress goes (stderr), or null (tests, --quiet). */
  progress?: NodeJS.WritableStream | null;
  /** Whether that stream is a terminal: a redrawn bar there, a line every few seconds elsewhere. */
  progressIsTTY?: boolean;
  /** Whether stdout is a terminal (colour). */
  stdoutIsTTY?: boolean;
  /** --color (true) / --no-color (false), set by the program from its options; undefined: from the environment. */
  color?: boolean;
  /** --quiet: no progress, no notes (noteTo), only results and errors. */
  quiet?: boolean;
  /** The environment colour is read from (default: the process's). */
  env?: NodeJS.ProcessEnv;
}

export interface CommandContext {
  io: Io;
  setExitCode(code: number): void;
}

/** Where a command's notes go (a loader's warnings, a commentary beside a result on stdout): stderr, unless --quiet. */
export function noteTo(ctx: CommandContext): (text: string) => void {
  return (text) => {
    if (!ctx.io.quiet) ctx.io.err(text);
  };
}
