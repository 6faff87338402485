// A CommonJS "package" with module-level state (test/own-code/context.test.ts): a counter of
// its calls, and a cycle through ./other.cjs that must see this module's partial exports.
exports.early = 'set before the cycle';
const other = require('./other.cjs');
let calls = 0;
exports.next = () => ++calls;
exports.sawEarly = other.sawEarly;
exports.version = require('./package.json').version;
