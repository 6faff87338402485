/**
 * XXH3 64-bit with seed 0 and the default secret: the hash behind Redis 8.4's DIGEST and the
 * IFDEQ / IFDNE conditions of SET and DELEX (redis 8.4 src/commands/digest.json: "Returns the
 * XXH3 hash of a string value"; t_string.c includes the xxhash.h Redis vendors). Written from
 * the xxHash 0.8 reference (xxhash.h: XXH3_len_0to16_64b, _17to128, _129to240 and the scalar
 * hashLong path); its output is the same on every platform and has not changed since 0.8.0.
 * test/world/redis/xxh3.test.ts checks it against redis.io's DIGEST example ("Hello world" ->
 * b6acb9d84a38ff74) and against xxhsum -H3 for every length class. BigInt throughout: the
 * model hashes short lock tokens, a few per request at most.
 */

const MASK64 = (1n << 64n) - 1n;
const P32_1 = 0x9e3779b1n;
const P32_2 = 0x85ebca77n;
const P32_3 = 0xc2b2ae3dn;
const P64_1 = 0x9e3779b185ebca87n;
const P64_2 = 0xc2b2ae3d27d4eb4fn;
const P64_3 = 0x165667b19e3779f9n;
const P64_4 = 0x85ebca77c2b2ae63n;
const P64_5 = 0x27d4eb2f165667c5n;

/** XXH3_kSecret, the 192-byte default secret (xxhash.h). */
const SECRET = Uint8Array.from([
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
  0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
  0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
  0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
  0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
  0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
  0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
  0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
  0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
  0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
  0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
  0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
]);
const SECRET_SIZE = SECRET.length;
/** XXH3_SECRET_SIZE_MIN. */
const SECRET_SIZE_MIN = 136;
const STRIPE_LEN = 64;
const SECRET_CONSUME_RATE = 8;

function read64(b: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(b[at + i]);
  return v;
}

function read32(b: Uint8Array, at: number): bigint {
  return BigInt((b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) >>> 0) + (BigInt(b[at + 3]) << 24n);
}

const mul = (a: bigint, b: bigint): bigint => (a * b) & MASK64;
const add = (a: bigint, b: bigint): bigint => (a + b) & MASK64;
const rotl = (v: bigint, r: bigint): bigint => ((v << r) | (v >> (64n - r))) & MASK64;
const xorshift = (v: bigint, s: bigint): bigint => v ^ (v >> s);

function swap64(v: bigint): bigint {
  let out = 0n;
  for (let i = 0; i < 8; i++) {
    out = (out << 8n) | (v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** XXH3_mul128_fold64: the 128-bit product's halves xored. */
function mulFold(a: bigint, b: bigint): bigint {
  const p = a * b;
  return (p & MASK64) ^ (p >> 64n);
}

function xxh64Avalanche(h: bigint): bigint {
  h = mul(xorshift(h, 33n), P64_2);
  h = mul(xorshift(h, 29n), P64_3);
  return xorshift(h, 32n);
}

function avalanche(h: bigint): bigint {
  return xorshift(mul(xorshift(h, 37n), 0x165667919e3779f9n), 32n);
}

function rrmxmx(h: bigint, len: number): bigint {
  h ^= rotl(h, 49n) ^ rotl(h, 24n);
  h = mul(h, 0x9fb21c651e98df25n);
  h ^= (h >> 35n) + BigInt(len);
  h = mul(h, 0x9fb21c651e98df25n);
  return xorshift(h, 28n);
}

function mix16(input: Uint8Array, at: number, secretAt: number): bigint {
  return mulFold(read64(input, at) ^ read64(SECRET, secretAt), read64(input, at + 8) ^ read64(SECRET, secretAt + 8));
}

function len0to16(input: Uint8Array, len: number): bigint {
  if (len > 8) {
    const lo = read64(input, 0) ^ (read64(SECRET, 24) ^ read64(SECRET, 32));
    const hi = read64(input, len - 8) ^ (read64(SECRET, 40) ^ read64(SECRET, 48));
    return avalanche(add(add(add(BigInt(len), swap64(lo)), hi), mulFold(lo, hi) & MASK64));
  }
  if (len >= 4) {
    const input64 = read32(input, len - 4) + (read32(input, 0) << 32n);
    return rrmxmx(input64 ^ (read64(SECRET, 8) ^ read64(SECRET, 16)), len);
  }
  if (len > 0) {
    const combined = (BigInt(input[0]) << 16n) | (BigInt(input[len >> 1]) << 24n) | BigInt(input[len - 1]) | (BigInt(len) << 8n);
    return xxh64Avalanche(combined ^ (read32(SECRET, 0) ^ read32(SECRET, 4)));
  }
  return xxh64Avalanche(read64(SECRET, 56) ^ read64(SECRET, 64));
}

function len17to128(input: Uint8Array, len: number): bigint {
  let acc = mul(BigInt(len), P64_1);
  if (len > 32) {
    if (len > 64) {
      if (len > 96) {
        acc = add(acc, mix16(input, 48, 96));
        acc = add(acc, mix16(input, len - 64, 112));
      }
      acc = add(acc, mix16(input, 32, 64));
      acc = add(acc, mix16(input, len - 48, 80));
    }
    acc = add(acc, mix16(input, 16, 32));
    acc = add(acc, mix16(input, len - 32, 48));
  }
  acc = add(acc, mix16(input, 0, 0));
  acc = add(acc, mix16(input, len - 16, 16));
  return avalanche(acc);
}

function len129to240(input: Uint8Array, len: number): bigint {
  let acc = mul(BigInt(len), P64_1);
  const rounds = Math.floor(len / 16);
  for (let i = 0; i < 8; i++) acc = add(acc, mix16(input, 16 * i, 16 * i));
  acc = avalanche(acc);
  // XXH3_MIDSIZE_STARTOFFSET 3, XXH3_MIDSIZE_LASTOFFSET 17.
  for (let i = 8; i < rounds; i++) acc = add(acc, mix16(input, 16 * i, 16 * (i - 8) + 3));
  acc = add(acc, mix16(input, len - 16, SECRET_SIZE_MIN - 17));
  return avalanche(acc);
}

/** XXH3_accumulate_512_scalar over the stripe at `at` with the secret at `secretAt`. */
function accumulate512(acc: bigint[], input: Uint8Array, at: number, secretAt: number): void {
  for (let i = 0; i < 8; i++) {
    const data = read64(input, at + 8 * i);
    const key = data ^ read64(SECRET, secretAt + 8 * i);
    acc[i ^ 1] = add(acc[i ^ 1], data);
    acc[i] = add(acc[i], (key & 0xffffffffn) * (key >> 32n));
  }
}

function scramble(acc: bigint[], secretAt: number): void {
  for (let i = 0; i < 8; i++) acc[i] = mul(xorshift(acc[i], 47n) ^ read64(SECRET, secretAt + 8 * i), P32_1);
}

function hashLong(input: Uint8Array, len: number): bigint {
  const acc = [P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1];
  const stripesPerBlock = (SECRET_SIZE - STRIPE_LEN) / SECRET_CONSUME_RATE;
  const blockLen = STRIPE_LEN * stripesPerBlock;
  const blocks = Math.floor((len - 1) / blockLen);
  for (let n = 0; n < blocks; n++) {
    for (let s = 0; s < stripesPerBlock; s++) accumulate512(acc, input, n * blockLen + s * STRIPE_LEN, s * SECRET_CONSUME_RATE);
    scramble(acc, SECRET_SIZE - STRIPE_LEN);
  }
  const stripes = Math.floor((len - 1 - blockLen * blocks) / STRIPE_LEN);
  for (let s = 0; s < stripes; s++) accumulate512(acc, input, blocks * blockLen + s * STRIPE_LEN, s * SECRET_CONSUME_RATE);
  // XXH_SECRET_LASTACC_START 7: the last stripe ends at the input's end.
  accumulate512(acc, input, len - STRIPE_LEN, SECRET_SIZE - STRIPE_LEN - 7);
  // XXH3_mergeAccs from XXH_SECRET_MERGEACCS_START 11.
  let result = mul(BigInt(len), P64_1);
  for (let i = 0; i < 4; i++) result = add(result, mulFold(acc[2 * i] ^ read64(SECRET, 11 + 16 * i), acc[2 * i + 1] ^ read64(SECRET, 11 + 16 * i + 8)) & MASK64);
  return avalanche(result);
}

/** XXH3_64bits(bytes) as an unsigned 64-bit bigint. */
export function xxh3(input: Uint8Array): bigint {
  const len = input.length;
  if (len <= 16) return len0to16(input, len);
  if (len <= 128) return len17to128(input, len);
  if (len <= 240) return len129to240(input, len);
  return hashLong(input, len);
}
