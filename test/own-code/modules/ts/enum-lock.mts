// An enum needs a transform, not just its types stripped: refused at its line and column.
const leaseMs: number = 1000;
  enum Mode { Fast, Safe }
export default function f() {
  return { async acquire() { return null; }, async release() { return false; } };
}
