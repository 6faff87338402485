export default function notALock() { return { acquire() {} }; }
export const answer = 42;
