/**
 * Redis's glob-style pattern match (redis 7.0.15 util.c stringmatchlen, as KEYS, SCAN MATCH,
 * PSUBSCRIBE and PUBSUB CHANNELS use it, case-sensitive): `*`, `?`, `[...]` with `^` and ranges
 * (a reversed range is swapped), `\` quoting; it works on the bytes of the UTF-8 text, each read
 * as a C `char` (signed on x86-64), past the end as the terminating NUL.
 */

const bytesOf = (s: string): Int8Array => {
  const b = Buffer.from(s, 'utf8');
  return new Int8Array(b.buffer, b.byteOffset, b.length);
};

export function globMatch(pattern: string, text: string): boolean {
  if (pattern === '*') return true;
  const skip = { longer: false };
  return matchFrom(bytesOf(pattern), 0, bytesOf(text), 0, skip);
}

function matchFrom(p: Int8Array, pi: number, s: Int8Array, si: number, skip: { longer: boolean }): boolean {
  const at = (a: Int8Array, i: number): number => (i < a.length ? a[i] : 0);
  let plen = p.length - pi;
  let slen = s.length - si;
  while (plen > 0 && slen > 0) {
    const c = at(p, pi);
    if (c === 42 /* * */) {
      while (plen > 0 && at(p, pi + 1) === 42) {
        pi++;
        plen--;
      }
      if (plen === 1) return true;
      while (slen > 0) {
        if (matchFrom(p, pi + 1, s, si, skip)) return true;
        if (skip.longer) return false;
        si++;
        slen--;
      }
      skip.longer = true;
      return false;
    } else if (c === 63 /* ? */) {
      si++;
      slen--;
    } else if (c === 91 /* [ */) {
      pi++;
      plen--;
      const not = at(p, pi) === 94; /* ^ */
      if (not) {
        pi++;
        plen--;
      }
      let match = false;
      for (;;) {
        if (at(p, pi) === 92 /* \ */ && plen >= 2) {
          pi++;
          plen--;
          if (at(p, pi) === at(s, si)) match = true;
        } else if (at(p, pi) === 93 /* ] */) {
          break;
        } else if (plen === 0) {
          pi--;
          plen++;
          break;
        } else if (plen >= 3 && at(p, pi + 1) === 45 /* - */) {
          let start = at(p, pi);
          let end = at(p, pi + 2);
          const ch = at(s, si);
          if (start > end) [start, end] = [end, start];
          pi += 2;
          plen -= 2;
          if (ch >= start && ch <= end) match = true;
        } else if (at(p, pi) === at(s, si)) {
          match = true;
        }
        pi++;
        plen--;
      }
      if (not) match = !match;
      if (!match) return false;
      si++;
      slen--;
    } else {
      if (c === 92 /* \ */ && plen >= 2) {
        pi++;
        plen--;
      }
      if (at(p, pi) !== at(s, si)) return false;
      si++;
      slen--;
    }
    pi++;
    plen--;
    if (slen === 0) {
      while (at(p, pi) === 42) {
        pi++;
        plen--;
      }
      break;
    }
  }
  return plen === 0 && slen === 0;
}
