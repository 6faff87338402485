/**
 * Layout helpers for the report's SVG: text widths estimated from the font size (no browser
 * to measure in), legends that wrap instead of running into each other, and labels given
 * rows so that none overlaps another.
 */

/** A generous width for `text` at `fontPx` in system-ui: wide letters (W, M) included. */
export function textWidth(text: string, fontPx: number): number {
  let em = 0;
  for (const c of text) em += /[MWmw@%]/.test(c) ? 0.9 : /[A-Z0-9#&+=<>?_~]/.test(c) ? 0.68 : /[ilj.,:;'|!()[\]{} ]/.test(c) ? 0.32 : 0.56;
  return em * fontPx;
}

/**
 * Rows for labels that start at `x` (sorted or not): each goes to the first row where it does
 * not touch the label before it, so labels never overlap however close their anchors are.
 */
export function labelRows(labels: ReadonlyArray<{ x: number; width: number }>, gapPx = 6): number[] {
  const rowEnds: number[] = [];
  const order = labels.map((l, i) => ({ ...l, i })).sort((a, b) => a.x - b.x || a.i - b.i);
  const rows = Array<number>(labels.length).fill(0);
  for (const l of order) {
    let row = rowEnds.findIndex((end) => end + gapPx <= l.x);
    if (row < 0) {
      row = rowEnds.length;
      rowEnds.push(0);
    }
    rowEnds[row] = l.x + l.width;
    rows[l.i] = row;
  }
  return rows;
}

/** A legend's items laid out left to right, wrapping to a new line before the width runs out. */
export function flowLegend(items: readonly string[], widthPx: number, fontPx: number, swatchPx = 12, gapPx = 18): Array<{ x: number; line: number }> {
  const out: Array<{ x: number; line: number }> = [];
  let x = 0;
  let line = 0;
  for (const item of items) {
    const w = swatchPx + 4 + textWidth(item, fontPx);
    if (x > 0 && x + w > widthPx) {
      x = 0;
      line++;
    }
    out.push({ x, line });
    x += w + gapPx;
  }
  return out;
}
