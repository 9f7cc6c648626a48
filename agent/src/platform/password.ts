// The Thing's one-time password: from a pipe (its first line), or typed at a prompt on a terminal with
// echo off. Never from argv (visible in ps) nor the environment (inherited by children, kept in /proc).
import type { Readable, Writable } from "node:stream";

export interface PasswordIo {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stderr: Writable;
}

const MAX_BYTES = 4096;

export async function readPassword(io: PasswordIo, prompt: string): Promise<string> {
  if (io.stdin.isTTY && io.stdin.setRawMode) return promptHidden(io, prompt);
  return firstLine(io.stdin);
}

/** The first line of a piped stdin, without its line ending; bounded, so a stray stream cannot fill memory. */
export async function firstLine(stream: Readable): Promise<string> {
  let text = "";
  for await (const chunk of stream) {
    text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
    const end = text.search(/\r?\n/);
    if (end >= 0) return text.slice(0, end);
    if (text.length > MAX_BYTES) throw new Error("the password on stdin is longer than 4096 bytes");
  }
  return text;
}

function promptHidden(io: PasswordIo, prompt: string): Promise<string> {
  const stdin = io.stdin as PasswordIo["stdin"] & { setRawMode: (raw: boolean) => unknown };
  io.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = "";
    const done = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      io.stderr.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of typeof chunk === "string" ? chunk : chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return done();
        if (ch === "\u0003") return done(new Error("interrupted"));
        if (ch === "\u007f" || ch === "\b") typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.on("data", onData);
  });
}
