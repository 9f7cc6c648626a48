// One bounded TCP look: whether something accepts at host:port, and (for the leaf's client port) greets
// with a NATS INFO line, which tells a serving nats-server from a port merely bound.
import { connect } from "node:net";

export function answers(host: string, port: number, options: { timeoutMs: number; greeting?: string }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let received = "";
    const done = (result: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(false), options.timeoutMs);
    socket.once("error", () => done(false));
    socket.once("connect", () => {
      if (options.greeting === undefined) done(true);
    });
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (options.greeting !== undefined && received.length >= options.greeting.length) done(received.startsWith(options.greeting));
    });
  });
}
