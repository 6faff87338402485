// Keeps everything it allocates in acquire until the heap is full (test/own-code/memory.test.ts).
const kept = [];
export default function fillsHeap() {
  return {
    async acquire() {
      for (;;) kept.push(new Array(1e5).fill(kept.length));
    },
    async release() {
      return false;
    },
  };
}
