/**
 * `Date` and `Intl` of a realm in a fixed time zone and locale (UTC and en-US unless the
 * variant says otherwise: `lock: { module, time-zone, locale }`), whatever the host's TZ and
 * LANG: V8 reads the host's zone and ICU's default locale, which differ between machines and
 * would make a module that formats or reads local time (getHours, toString, toLocaleString,
 * `new Date(y, m, d)`, Intl.DateTimeFormat) give other results elsewhere. The local-time (lock-sim: wall-clock ok, names the API)
 * methods are computed from the UTC ones and the zone's offset at that instant (ICU, through
 * Intl.DateTimeFormat with that zone); local time to UTC follows ECMA-262 (21.4.1.26 UTC(t):
 * the offset before a transition for a skipped or repeated local time). `Date()` without
 * `new` gives the string of now, as in Node.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ISO = /^([+-]\d{6}|\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}:\d{2})?$/;
/** A zone named in a non-ISO date string (V8's legacy parser reads these). */
const EXPLICIT_ZONE = /\b(?:GMT|UTC|UT|Z)\b|[+-]\d{2}:?\d{2}\s*(?:\(|$)|\b[ECMP][SD]T\b/i;

const pad = (n: number, w = 2): string => String(Math.abs(n)).padStart(w, '0');

/** The zone's offset from UTC (ms) at instant `t`: local = t + offset. */
function zoneOffsetFn(timeZone: string): (t: number) => number {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return () => 0;
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short' });
  const cache = new Map<number, number>();
  return (t: number): number => {
    const second = Math.floor(t / 1000);
    const known = cache.get(second);
    if (known !== undefined) return known;
    const parts: Record<string, string> = {};
    for (const p of fmt.formatToParts(new Date(second * 1000))) parts[p.type] = p.value; // lock-sim: wall-clock ok (a given instant, no clock read)
    let year = Number(parts.year);
    if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
    const local = Date.UTC(year, Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
    const offset = local - second * 1000;
    if (cache.size > 4096) cache.clear();
    cache.set(second, offset);
    return offset;
  };
}

/** Builds the realm's Date: `RealDate` is the context's own, `wallNow` the client's clock (ms since the epoch). */
export function makeZonedDate(RealDate: DateConstructor, wallNow: () => number, timeZone: () => string, locale: () => string): DateConstructor {
  const proto = RealDate.prototype;
  const valueOf = proto.valueOf;
  const setTime = proto.setTime;
  const offsets = new Map<string, (t: number) => number>();
  const offsetAt = (t: number): number => {
    const zone = timeZone();
    let f = offsets.get(zone);
    if (!f) offsets.set(zone, (f = zoneOffsetFn(zone)));
    return f(t);
  };
  /** ECMA-262 UTC(t): local time to UTC, the offset before a transition for a skipped or repeated local time. */
  const utcOf = (local: number): number => {
    if (!Number.isFinite(local)) return NaN;
    const before = offsetAt(local - offsetAt(local) - 3 * 3600_000);
    const after = offsetAt(local - offsetAt(local) + 3 * 3600_000);
    if (before === after) return local - before;
    const withBefore = local - before;
    // The earlier reading for a repeated hour, the offset before the transition for a skipped one.
    return offsetAt(withBefore) === before ? withBefore : local - after;
  };
  const local = (d: Date): number => {
    const t = valueOf.call(d);
    return t + offsetAt(t);
  };
  const zoneName = (t: number): string => {
    const part = new Intl.DateTimeFormat('en-US', { timeZone: timeZone(), timeZoneName: 'long' }).formatToParts(new Date(t)).find((p) => p.type === 'timeZoneName'); // lock-sim: wall-clock ok (a given instant)
    return part ? part.value : timeZone();
  };
  const gmt = (t: number): string => {
    const minutes = Math.round(offsetAt(t) / 60000);
    return `GMT${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)}`;
  };
  const dateString = (t: number): string => {
    const l = new RealDate(t + offsetAt(t));
    const y = l.getUTCFullYear();
    return `${DAYS[l.getUTCDay()]} ${MONTHS[l.getUTCMonth()]} ${pad(l.getUTCDate())} ${y < 0 ? '-' + pad(-y, 6) : pad(y, 4)}`;
  };
  const timeString = (t: number): string => {
    const l = new RealDate(t + offsetAt(t));
    return `${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())} ${gmt(t)} (${zoneName(t)})`;
  };
  const toStringOf = (t: number): string => (Number.isNaN(t) ? 'Invalid Date' : `${dateString(t)} ${timeString(t)}`);

  const parse = (s: unknown): number => {
    const text = String(s).trim();
    const iso = ISO.exec(text);
    if (iso) {
      // Date-only forms and forms with an offset are UTC or say their zone; a date-time without one is local time.
      if (iso[4] === undefined || iso[5] !== undefined) return RealDate.parse(text);
      return utcOf(RealDate.parse(text + 'Z'));
    }
    const host = RealDate.parse(text);
    if (Number.isNaN(host) || EXPLICIT_ZONE.test(text)) return host;
    // V8 read it as the host's local time: the same wall-clock reading, in this zone.
    const hostWall = host - new RealDate(host).getTimezoneOffset() * 60000;
    return utcOf(hostWall);
  };

  function SimDate(this: any, ...args: any[]): any {
    if (new.target === undefined) return toStringOf(wallNow());
    let t: number;
    if (args.length === 0) t = wallNow();
    else if (args.length === 1) {
      const v = args[0];
      if (v instanceof RealDate || (v !== null && typeof v === 'object' && typeof (v as Date).getTime === 'function' && Object.prototype.toString.call(v) === '[object Date]')) t = valueOf.call(v);
      else {
        const p = typeof v === 'object' && v !== null ? v[Symbol.toPrimitive]?.('default') ?? v.valueOf() : v;
        t = typeof p === 'string' ? parse(p) : Number(p);
      }
    } else {
      const n = args.slice(0, 7).map(Number) as [number, number, number?, number?, number?, number?, number?];
      if (n.length < 3) n[2] = 1;
      t = utcOf(RealDate.UTC(...(n as [number, number])));
    }
    return Reflect.construct(RealDate, [t], new.target);
  }
  const sim = SimDate as unknown as DateConstructor & Record<string, unknown>;
  const simProto = Object.create(proto);
  Object.defineProperty(sim, 'prototype', { value: simProto, writable: false });
  Object.defineProperty(simProto, 'constructor', { value: sim, writable: true, configurable: true });
  Object.defineProperties(sim, {
    now: { value: () => wallNow(), writable: true, configurable: true },
    parse: { value: parse, writable: true, configurable: true },
    UTC: { value: RealDate.UTC, writable: true, configurable: true },
  });
  const getters: Record<string, (l: Date) => number> = {
    getFullYear: (l) => l.getUTCFullYear(), getMonth: (l) => l.getUTCMonth(), getDate: (l) => l.getUTCDate(),
    getDay: (l) => l.getUTCDay(), getHours: (l) => l.getUTCHours(), getMinutes: (l) => l.getUTCMinutes(),
    getSeconds: (l) => l.getUTCSeconds(), getMilliseconds: (l) => l.getUTCMilliseconds(),
  };
  const methods: Record<string, (this: Date, ...a: any[]) => unknown> = {};
  for (const [name, get] of Object.entries(getters)) {
    methods[name] = function (this: Date) {
      const l = local(this);
      return Number.isNaN(l) ? NaN : get(new RealDate(l));
    };
  }
  methods.getYear = function (this: Date) { const y = (methods.getFullYear as any).call(this); return y - 1900; };
  methods.getTimezoneOffset = function (this: Date) {
    const t = valueOf.call(this);
    return Number.isNaN(t) ? NaN : -offsetAt(t) / 60000;
  };
  const setters: Record<string, string> = {
    setFullYear: 'setUTCFullYear', setMonth: 'setUTCMonth', setDate: 'setUTCDate', setHours: 'setUTCHours',
    setMinutes: 'setUTCMinutes', setSeconds: 'setUTCSeconds', setMilliseconds: 'setUTCMilliseconds',
  };
  for (const [name, utcName] of Object.entries(setters)) {
    methods[name] = function (this: Date, ...a: any[]) {
      let l = local(this);
      if (Number.isNaN(l)) {
        if (name !== 'setFullYear') return NaN;
        l = 0;
      }
      const tmp = new RealDate(l);
      (tmp as any)[utcName](...a);
      return setTime.call(this, utcOf(valueOf.call(tmp)));
    };
  }
  methods.setYear = function (this: Date, y: number) {
    const year = Number(y);
    return (methods.setFullYear as any).call(this, year >= 0 && year <= 99 ? 1900 + year : year);
  };
  methods.toString = function (this: Date) { return toStringOf(valueOf.call(this)); };
  methods.toDateString = function (this: Date) { const t = valueOf.call(this); return Number.isNaN(t) ? 'Invalid Date' : dateString(t); };
  methods.toTimeString = function (this: Date) { const t = valueOf.call(this); return Number.isNaN(t) ? 'Invalid Date' : timeString(t); };
  for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString'] as const) {
    const real = proto[name];
    methods[name] = function (this: Date, locales?: unknown, options?: Record<string, unknown>) {
      const o = options === undefined || options === null ? { timeZone: timeZone() } : options.timeZone === undefined ? { ...options, timeZone: timeZone() } : options;
      return (real as any).call(this, locales ?? locale(), o);
    };
  }
  for (const [name, fn] of Object.entries(methods)) Object.defineProperty(simProto, name, { value: fn, writable: true, configurable: true });
  return sim;
}

/** Makes a realm's Intl and locale-reading methods default to `locale` (and DateTimeFormat to `timeZone`). */
export function localizeRealm(realm: { Intl: typeof Intl; String: StringConstructor; Number: NumberConstructor; BigInt: BigIntConstructor }, timeZone: () => string, locale: () => string): void {
  const intl = realm.Intl as any;
  for (const name of ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'DisplayNames', 'Segmenter']) {
    const Real = intl[name];
    if (typeof Real !== 'function') continue;
    const zoned = name === 'DateTimeFormat';
    const Wrapped = function (this: unknown, locales?: unknown, options?: any): unknown {
      const o = zoned && (options === undefined || options === null || options.timeZone === undefined) ? { ...(options ?? {}), timeZone: timeZone() } : options;
      return new Real(locales ?? locale(), o);
    } as any;
    Object.defineProperty(Wrapped, 'name', { value: name });
    Object.defineProperty(Wrapped, 'prototype', { value: Real.prototype, writable: false });
    Wrapped.supportedLocalesOf = Real.supportedLocalesOf;
    Object.defineProperty(intl, name, { value: Wrapped, writable: true, configurable: true });
  }
  const wrapMethod = (target: any, name: string, localesAt: number): void => {
    const real = target[name];
    Object.defineProperty(target, name, {
      value: function (this: unknown, ...args: unknown[]) {
        if (args[localesAt] === undefined) args[localesAt] = locale();
        return real.apply(this, args);
      },
      writable: true,
      configurable: true,
    });
  };
  wrapMethod(realm.String.prototype, 'localeCompare', 1);
  wrapMethod(realm.String.prototype, 'toLocaleUpperCase', 0);
  wrapMethod(realm.String.prototype, 'toLocaleLowerCase', 0);
  wrapMethod(realm.Number.prototype, 'toLocaleString', 0);
  wrapMethod(realm.BigInt.prototype, 'toLocaleString', 0);
}
