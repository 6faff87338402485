export * from './operation.js';
export * from './recorder.js';
