// Opens a real TCP connection in acquire (a real Redis client would): lock-sim refuses it.
import net from 'node:net';
export default function realIo() {
  return {
    async acquire() {
      const socket = net.connect(6379, '127.0.0.1');
      socket.on('error', () => {});
      return null;
    },
    async release() {
      return false;
    },
  };
}
