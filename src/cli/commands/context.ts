/** What every command gets: where to print, where progress may go, how to set the exit code. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** A terminal stream for progress bars, or null (not a terminal, or tests). */
  progress?: NodeJS.WritableStream | null;
  /** Whether stdout is a terminal (colour). */
  stdoutIsTTY?: boolean;
}

export interface CommandContext {
  io: Io;
  setExitCode(code: number): void;
}
