// The other half of state-pkg's require cycle: it sees index.cjs's exports as they are so far.
exports.sawEarly = require('./index.cjs').early;
