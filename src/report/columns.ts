/**
 * A plain table, as aligned text (two spaces between columns, a rule under the head, no
 * borders: the narrowest form that still reads as a table) or as GitHub-flavoured Markdown.
 * Heads may have two lines ("P(oversell) %\n[95% CI]"); Markdown joins them with a space.
 */
export interface Column<Row> {
  /** The name `--columns` selects it by. */
  id: string;
  head: string;
  align: 'left' | 'right';
  cell(row: Row): string;
  /** Shown only when --columns names it (keeps the default table within 120 characters). */
  extra?: boolean;
}

export function renderTextTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const heads = columns.map((c) => c.head.split('\n'));
  const headLines = Math.max(...heads.map((h) => h.length));
  const cells = rows.map((r) => columns.map((c) => c.cell(r)));
  const widths = columns.map((_, i) => Math.max(...heads[i].map((h) => h.length), ...cells.map((row) => row[i].length)));
  const line = (values: string[]): string =>
    values.map((v, i) => (columns[i].align === 'right' ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ').trimEnd();
  const out: string[] = [];
  for (let l = 0; l < headLines; l++) out.push(line(heads.map((h) => h[l] ?? '')));
  out.push(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const row of cells) out.push(line(row));
  return out.join('\n');
}

/** Markdown escapes: a pipe would end the cell, and a name from a scenario file may hold one. */
export const markdownCell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMarkdownTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const out = [
    `| ${columns.map((c) => markdownCell(c.head.replace(/\n/g, ' '))).join(' | ')} |`,
    `|${columns.map((c) => (c.align === 'right' ? '---:' : '---')).join('|')}|`,
  ];
  for (const row of rows) out.push(`| ${columns.map((c) => markdownCell(c.cell(row))).join(' | ')} |`);
  return out.join('\n');
}

/**
 * Picks columns by id (the first, the row's name, always stays); unknown ids are refused by
 * the caller. None named: every column but the extras.
 */
export function selectColumns<Row>(all: readonly Column<Row>[], ids: readonly string[] | undefined): Column<Row>[] {
  if (ids === undefined || ids.length === 0) return all.filter((c) => !c.extra);
  return [all[0], ...ids.filter((id) => id !== all[0].id).map((id) => all.find((c) => c.id === id) as Column<Row>)];
}
