export * from './time.js';
export * from './event-queue.js';
export * from './random.js';
export * from './distribution.js';
export * from './signal.js';
export * from './process.js';
export * from './simulation.js';
