/**
 * Reading stdin and writing stdout/stderr for skel, over injectable streams so that the whole
 * dispatcher runs in-process in tests, as upstream's `dispatcher` takes Getenv/Stdin/Stdout.
 */

import { arrayBuffer } from "node:stream/consumers";
import { goPathErrorText } from "../internal/errno.js";
import { messageOf } from "../internal/error-message.js";
import type { OutputStream } from "./types.js";

/** Where the config comes from: bytes already read, or a stream such as `process.stdin`. */
export type StdinSource = Uint8Array | AsyncIterable<Uint8Array | string>;

/** Reads a stdin source to the end (upstream `io.ReadAll`). Rejects with the stream's error. */
export async function readAll(source: StdinSource): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  // stream/consumers takes string chunks as UTF-8, as Buffer.from does.
  return new Uint8Array(await arrayBuffer(source));
}

/**
 * Writes a chunk and resolves once the stream has taken it, so that a plugin's output is out
 * before the process exits (process.exit does not wait for pending asynchronous writes).
 */
export function writeAll(stream: OutputStream, chunk: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    // A failed write is also the stream's "error" event, emitted after the callback: heard
    // here, or it would be an uncaught exception where Go returns the write's error.
    const events = stream as Partial<Pick<NodeJS.EventEmitter, "once" | "off">>;
    events.once?.("error", reject);
    stream.write(chunk, (error) => {
      if (!error) events.off?.("error", reject);
      return error ? reject(error) : resolve();
    });
  });
}

/**
 * A failed read of stdin or write of stdout: the process's own (a system error) as Go's
 * `*os.PathError` on /dev/stdin or /dev/stdout says it, an injected stream's as its message.
 */
export function stdioErrorText(error: unknown, op: "read" | "write"): string {
  if (typeof (error as { syscall?: unknown } | null)?.syscall !== "string") return messageOf(error);
  return goPathErrorText(error, op === "read" ? "/dev/stdin" : "/dev/stdout", op);
}
