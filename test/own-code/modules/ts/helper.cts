// CommonJS in TypeScript (.cts), required from an ES module.
function pad(s: string): string {
  return `[${s}]`;
}
module.exports = { pad };
