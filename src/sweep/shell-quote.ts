/**
 * One argument of a printed command, quoted for a POSIX shell (sh, bash, zsh): plain words
 * as they are, anything else in single quotes, inside which nothing is special; a single
 * quote itself becomes '\'' (POSIX.1-2017 Shell Command Language, 2.2.3 Single-Quotes).
 * So a variant named `lease 10s` or `$(rm -rf ~)` replays as that name and runs nothing.
 */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
