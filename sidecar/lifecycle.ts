// The sidecar never outlives the PocketBase that started it. The parent holds the write end of our stdin;
// the kernel closes it however the parent ends (kill -9 included), so EOF on stdin is the primary signal.
// A changed parent pid (we were re-parented) is checked every second in case something else keeps the
// pipe open, and SIGTERM/SIGINT end us as usual.
import type { Readable } from "node:stream";

export interface ParentWatch {
  stdin: Readable;
  parentPid: () => number;
  onGone: (reason: string) => void;
  pollMs?: number;
}

export function watchParent({ stdin, parentPid, onGone, pollMs = 1_000 }: ParentWatch): () => void {
  const initial = parentPid();
  let gone = false;
  const end = (reason: string) => {
    if (gone) return;
    gone = true;
    stop();
    onGone(reason);
  };
  const onEnd = () => end("stdin closed");
  const onSignal = (signal: NodeJS.Signals) => end(signal);
  stdin.on("end", onEnd).on("close", onEnd).on("error", onEnd);
  // Flowing mode: without a reader the stream never reports its end.
  stdin.resume();
  // The parent may have closed the pipe right after the startup line, before these listeners existed.
  if (stdin.readableEnded || stdin.destroyed) queueMicrotask(onEnd);
  const timer = setInterval(() => {
    if (parentPid() !== initial) end("parent process changed");
  }, pollMs);
  process.on("SIGTERM", onSignal).on("SIGINT", onSignal);
  function stop() {
    clearInterval(timer);
    stdin.off("end", onEnd).off("close", onEnd).off("error", onEnd);
    process.off("SIGTERM", onSignal).off("SIGINT", onSignal);
  }
  return stop;
}
