/**
 * Floating-point arguments and replies as redis 7.0.15 reads and prints them (glibc on x86-64):
 * strtod's syntax (util.c string2d, t_zset.c zslParseRange), "%.17g" (networking.c
 * addReplyDouble), util.c d2string, and the seconds of a blocking command's timeout
 * (timeout.c getTimeoutFromObjectOrReply: strtold, then ceill(seconds * 1000)).
 */

/** C isspace in the "C" locale. */
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** The smallest normal double: below it a nonzero result has underflowed (ERANGE). */
const MIN_NORMAL = 2.2250738585072014e-308;

interface Strtod {
  value: number;
  /** Index just after what was parsed (0: nothing was). */
  end: number;
  /** errno ERANGE: overflow to +-HUGE_VAL, or underflow. */
  erange: boolean;
  /** The decimal digits and exponent read (for an exact product); null for inf, nan, hex. */
  decimal: { digits: string; exponent: number; negative: boolean } | null;
}

/**
 * glibc strtod from `s[from]` on: leading white space, a sign, then "inf" / "infinity", "nan"
 * (with an optional "(chars)"), a hexadecimal float "0x..." with an optional binary exponent,
 * or decimal digits with an optional fraction and exponent. Nothing parsed: end 0.
 */
export function strtod(s: string, from = 0): Strtod {
  let i = from;
  while (isSpace(s[i])) i++;
  let negative = false;
  if (s[i] === '+' || s[i] === '-') {
    negative = s[i] === '-';
    i++;
  }
  const sign = negative ? -1 : 1;
  const rest = s.slice(i, i + 8).toLowerCase();
  if (rest.startsWith('inf')) {
    const end = i + (rest === 'infinity' ? 8 : 3);
    return { value: sign * Infinity, end, erange: false, decimal: null };
  }
  if (rest.startsWith('nan')) {
    let end = i + 3;
    if (s[end] === '(') {
      let j = end + 1;
      while (j < s.length && /[0-9A-Za-z_]/.test(s[j])) j++;
      if (s[j] === ')') end = j + 1;
    }
    return { value: NaN, end, erange: false, decimal: null };
  }
  if (s[i] === '0' && (s[i + 1] === 'x' || s[i + 1] === 'X') && (isHex(s[i + 2]) || (s[i + 2] === '.' && isHex(s[i + 3])))) {
    return hexFloat(s, i + 2, sign);
  }
  let j = i;
  let intDigits = '';
  while (isDigit(s[j])) intDigits += s[j++];
  let fracDigits = '';
  if (s[j] === '.') {
    let k = j + 1;
    while (isDigit(s[k])) fracDigits += s[k++];
    if (intDigits !== '' || fracDigits !== '') j = k;
  }
  if (intDigits === '' && fracDigits === '') return { value: 0, end: from, erange: false, decimal: null };
  const exponent = readExponent(s, j, 'e', 'E');
  j = exponentEnd;
  const digits = (intDigits + fracDigits).replace(/^0+/, '');
  const value = sign * Number(`${intDigits === '' ? '0' : intDigits}.${fracDigits === '' ? '0' : fracDigits}e${exponent}`);
  const erange = outOfRange(value, digits !== '');
  return { value, end: j, erange, decimal: { digits: intDigits + fracDigits, exponent: exponent - fracDigits.length, negative } };
}

function hexFloat(s: string, from: number, sign: number): Strtod {
  let j = from;
  let mantissa = '';
  let fraction = 0;
  while (isHex(s[j])) mantissa += s[j++];
  if (s[j] === '.') {
    j++;
    while (isHex(s[j])) {
      mantissa += s[j++];
      fraction++;
    }
  }
  const exponent = readExponent(s, j, 'p', 'P');
  j = exponentEnd;
  const m = BigInt(`0x${mantissa}`);
  const value = sign * Number(m) * 2 ** (exponent - 4 * fraction);
  const erange = outOfRange(value, m !== 0n);
  return { value: Number.isNaN(value) ? 0 : value, end: j, erange, decimal: null };
}

/** Where the last readExponent stopped (no object per number parsed). */
let exponentEnd = 0;

/**
 * strtod's optional exponent at s[j]: `lower` or `upper` ("e" of a decimal, "p" of a hex
 * float), an optional sign, digits. Its value (0 when there is none); `exponentEnd` is the
 * index after it, or j when there is none.
 */
function readExponent(s: string, j: number, lower: string, upper: string): number {
  exponentEnd = j;
  if (s[j] !== lower && s[j] !== upper) return 0;
  let k = j + 1;
  let expNegative = false;
  if (s[k] === '+' || s[k] === '-') {
    expNegative = s[k] === '-';
    k++;
  }
  if (!isDigit(s[k])) return 0;
  let e = '';
  while (isDigit(s[k])) e += s[k++];
  exponentEnd = k;
  // Beyond any double's range either way; kept bounded.
  return Math.min(Number(e), 100_000) * (expNegative ? -1 : 1);
}

/** errno ERANGE: a nonzero number that overflowed to +-HUGE_VAL or underflowed (to zero or a subnormal). */
function outOfRange(value: number, nonzero: boolean): boolean {
  const magnitude = Math.abs(value);
  return (nonzero && magnitude === 0) || magnitude === Infinity || (magnitude !== 0 && magnitude < MIN_NORMAL);
}

/** The whole text as one strtod number, not empty, not starting with white space, not NaN (string2d, string2ld); null otherwise. */
function wholeNumber(s: string): Strtod | null {
  if (s.length === 0 || isSpace(s[0])) return null;
  const r = strtod(s);
  if (r.end !== s.length || Number.isNaN(r.value)) return null;
  return r;
}

/**
 * util.c string2d (getDoubleFromObject): the whole text is one strtod number, not empty, not
 * starting with white space, not NaN, and neither an overflow to +-HUGE_VAL nor an underflow to
 * zero (a subnormal result is kept). null: "value is not a valid float".
 */
export function parseRedisDouble(s: string): number | null {
  const r = wholeNumber(s);
  if (r === null) return null;
  if (r.erange && (Math.abs(r.value) === Infinity || r.value === 0)) return null;
  return r.value;
}

/**
 * "%.17g" of a finite double, exact (glibc rounds the exact binary value half to even). V8's
 * toExponential rounds a tie up; a tie needs an exact expansion that stops at the 18th digit
 * with a 5, which toExponential(17) shows, and is then rounded exactly.
 */
function formatG17(d: number): string {
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  if (Number.isInteger(d) && Math.abs(d) < 1e17) return String(d);
  let [mantissa, exp] = d.toExponential(16).split('e');
  let exponent = Number(exp);
  const wide = d.toExponential(17);
  if (wide[wide.indexOf('e') - 1] === '5') [mantissa, exponent] = exactRound17(d);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/[-.]/g, '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 17) {
    const frac = digits.slice(1).replace(/0+$/, '');
    const e = Math.abs(exponent) < 10 ? `0${Math.abs(exponent)}` : String(Math.abs(exponent));
    return `${sign}${digits[0]}${frac === '' ? '' : `.${frac}`}e${exponent < 0 ? '-' : '+'}${e}`;
  }
  let text: string;
  if (exponent >= 0) {
    const int = digits.slice(0, exponent + 1);
    const frac = digits.slice(exponent + 1).replace(/0+$/, '');
    text = frac === '' ? int : `${int}.${frac}`;
  } else {
    const frac = `${'0'.repeat(-exponent - 1)}${digits}`.replace(/0+$/, '');
    text = `0.${frac}`;
  }
  return sign + text;
}

/** The 17 significant digits of `d` rounded half to even from its exact value, as toExponential gives them. */
function exactRound17(d: number): [string, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(d));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let m = bits & 0xfffffffffffffn;
  let e2 = biased - 1075;
  if (biased === 0) e2 = -1074;
  else m |= 1n << 52n;
  // Exact decimal digits of m * 2^e2, and the power of ten of its last digit.
  let digits: string;
  let lastPow: number;
  if (e2 >= 0) {
    digits = (m << BigInt(e2)).toString();
    lastPow = 0;
  } else {
    digits = (m * 5n ** BigInt(-e2)).toString();
    lastPow = e2;
  }
  const exponent = digits.length - 1 + lastPow;
  let head = BigInt(digits.slice(0, 17));
  const tail = digits.slice(17);
  const half = tail.length > 0 ? tail[0] : '0';
  const beyond = tail.slice(1).replace(/0/g, '') !== '';
  if (half > '5' || (half === '5' && (beyond || head % 2n === 1n))) head += 1n;
  let text = head.toString();
  let exp = exponent;
  if (text.length > 17) {
    text = text.slice(0, 17);
    exp++;
  }
  return [`${d < 0 ? '-' : ''}${text[0]}.${text.slice(1)}`, exp];
}

/** networking.c addReplyDouble (RESP2): "inf", "-inf", else "%.17g". */
export function replyDouble(d: number): string {
  if (d === Infinity) return 'inf';
  if (d === -Infinity) return '-inf';
  return formatG17(d);
}

/**
 * util.c d2string: "nan", "inf", "-inf", "-0", an integer within +-2^62 as its digits, else
 * "%.17g" (how a listpack stores a score, which ZSCAN of a small sorted set answers).
 */
export function d2string(d: number): string {
  if (Number.isNaN(d)) return 'nan';
  if (d === Infinity) return 'inf';
  if (d === -Infinity) return '-inf';
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  if (Number.isInteger(d) && Math.abs(d) <= 4611686018427387904) return BigInt(d).toString();
  return formatG17(d);
}

/**
 * timeout.c getTimeoutFromObjectOrReply with UNIT_SECONDS: the text must be one strtold number
 * (util.c string2ld: not empty, no leading white space, not NaN, no overflow to infinity, no
 * underflow to zero), then ceill(seconds * 1000) ms, cast to a 64-bit integer (x86-64: a value
 * outside the range, infinity included, becomes -2^63, so "timeout is negative"). The decimal
 * product is computed exactly: a long double (64-bit mantissa) rounds it the same way but for
 * texts whose product lies within 2^-64 of a whole millisecond.
 */
export function parseTimeoutSecondsMs(s: string): bigint | 'not-a-float' {
  const r = s.length >= 5 * 1024 ? null : wholeNumber(s);
  if (r === null) return 'not-a-float';
  if (r.erange && (Math.abs(r.value) === Infinity || r.value === 0) && r.decimal === null) return 'not-a-float';
  const MIN = -9223372036854775808n;
  if (r.decimal === null) {
    if (!Number.isFinite(r.value)) return MIN;
    const ms = Math.ceil(r.value * 1000);
    return Math.abs(ms) >= 2 ** 63 ? MIN : BigInt(ms);
  }
  const { digits, exponent, negative } = r.decimal;
  // Overflow and underflow of a long double (exponents beyond about +-4950) are errors too.
  if (r.erange && /[1-9]/.test(digits) && (exponent + digits.length > 4932 || exponent + digits.length < -4950)) return 'not-a-float';
  const e = exponent + 3;
  const n = BigInt(digits === '' ? '0' : digits);
  let ms: bigint;
  if (e >= 0) ms = e > 40 && n !== 0n ? 1n << 70n : n * 10n ** BigInt(e);
  else {
    const d = 10n ** BigInt(-e);
    const q = n / d;
    // ceil: toward +infinity.
    ms = negative ? q : q + (n % d === 0n ? 0n : 1n);
  }
  if (negative) ms = -ms;
  return ms >= 1n << 63n || ms < MIN ? MIN : ms;
}
