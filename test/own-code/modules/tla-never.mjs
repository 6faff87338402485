// A top-level await that never settles (test/own-code/module-errors.test.ts): refused at load.
await new Promise(() => {});
export default function never() {
  return { acquire: async () => null, release: async () => false };
}
