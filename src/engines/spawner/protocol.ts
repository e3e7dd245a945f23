/**
 * The framed protocol between the library and the spawner helper (native/spawner.c).
 *
 * Every frame, both ways: u32 length of what follows, u8 type, u32 run id, payload; all
 * little-endian. The helper's source comment is the reference for the payloads.
 */
import { SpawnerError } from "../../errors/spawner.js";

/** The protocol version the helper announces in its HELLO frame. */
export const protocolVersion = 5;

/** Request types (library to helper). */
export const Req = { run: 1, stdin: 2, stdinEnd: 3, close: 4, pin: 5, unpin: 6 } as const;

/** Reply types (helper to library). */
export const Rep = {
  hello: 0,
  started: 1,
  failed: 2,
  stdout: 3,
  stderr: 4,
  eof: 5,
  exit: 6,
  done: 7,
} as const;

/** File requests (library to helper, on the file channel: files.ts). */
export const FileReq = { read: 17 } as const;

/** File replies (helper to library, on the file channel). */
export const FileRep = { file: 17, readEnd: 18 } as const;

const headerBytes = 9;
// The helper sends at most 64 KiB of output per frame; anything much longer is not its stream.
const maxFrameBytes = 1024 * 1024;

/** One frame from the helper. `payload` is a view into the read buffer: copy to keep it. */
export interface Frame {
  type: number;
  id: number;
  payload: Uint8Array;
}

function header(buf: Buffer, type: number, id: number, payloadBytes: number): void {
  buf.writeUInt32LE(5 + payloadBytes, 0);
  buf[4] = type;
  buf.writeUInt32LE(id, 5);
}

/** A frame without a payload (STDIN_END, CLOSE). */
export function encodeEmpty(type: number, id: number): Buffer {
  const buf = Buffer.allocUnsafe(headerBytes);
  header(buf, type, id, 0);
  return buf;
}

/** STDIN frames with `data`, then STDIN_END, in one buffer (one write). */
export function encodeStdin(id: number, data: Uint8Array): Buffer {
  const buf = Buffer.allocUnsafe(stdinFramesBytes(data.length));
  writeStdin(buf, id, data);
  return buf;
}

// Stdin in frames no longer than the helper's own: one over its MAX_FRAME kills the helper.
const stdinFrameBytes = maxFrameBytes - 5;
const stdinFramesBytes = (n: number) => headerBytes * (Math.ceil(n / stdinFrameBytes) + 1) + n;

/** Writes `text` at `at` as a u32 length and its bytes; returns where the next field goes. */
function putText(buf: Buffer, at: number, text: string): number {
  const n = buf.write(text, at + 4);
  buf.writeUInt32LE(n, at);
  return at + 4 + n;
}

function writeStdin(buf: Buffer, id: number, data: Uint8Array): void {
  let at = 0;
  for (let from = 0; from < data.length; from += stdinFrameBytes) {
    const chunk = data.subarray(from, from + stdinFrameBytes);
    header(buf.subarray(at), Req.stdin, id, chunk.length);
    buf.set(chunk, at + headerBytes);
    at += headerBytes + chunk.length;
  }
  header(buf.subarray(at), Req.stdinEnd, id, 0);
}

/** The most an output cap can say in a RUN frame (u32); larger caps are this one. */
export const maxOutputCap = 0xffffffff;

/** What a RUN carries beyond the path and environment. */
export interface RunExtras {
  /** The output cap per pipe. */
  outputCap: number;
  /** Bytes for stdin, sent in the same write. */
  stdin?: Uint8Array | undefined;
  /** argv[1..]. */
  args?: readonly string[] | undefined;
  /** The network namespace to start the process in. */
  netns?: string | undefined;
}

/**
 * RUN: the executable's path, its environment (`KEY=value` entries) and the output cap per
 * pipe (the helper holds a running plugin's output only while it is within the cap), then its
 * arguments and namespace when there are any. With `stdin`, STDIN and STDIN_END follow in the
 * same buffer: one write starts the run and feeds it, with no wait for STARTED.
 */
export function encodeRun(
  id: number,
  path: string,
  env: readonly string[],
  extras: RunExtras,
): Buffer {
  const { outputCap, stdin, args = [], netns } = extras;
  const tail = args.length > 0 || netns !== undefined;
  let bytes = 12 + Buffer.byteLength(path);
  for (const entry of env) bytes += 4 + Buffer.byteLength(entry);
  if (tail) {
    bytes += 8 + Buffer.byteLength(netns ?? "");
    for (const arg of args) bytes += 4 + Buffer.byteLength(arg);
  }
  const stdinBytes = stdin === undefined ? 0 : stdinFramesBytes(stdin.length);
  const buf = Buffer.allocUnsafe(headerBytes + bytes + stdinBytes);
  header(buf, Req.run, id, bytes);
  let at = putText(buf, headerBytes, path);
  buf.writeUInt32LE(env.length, at);
  at += 4;
  for (const entry of env) at = putText(buf, at, entry);
  buf.writeUInt32LE(Math.min(Math.max(0, Math.floor(outputCap)), maxOutputCap), at);
  at += 4;
  if (tail) {
    buf.writeUInt32LE(args.length, at);
    at += 4;
    for (const arg of args) at = putText(buf, at, arg);
    at = putText(buf, at, netns ?? "");
  }
  if (stdin !== undefined) writeStdin(buf.subarray(at), id, stdin);
  return buf;
}

/** PIN (a new network namespace bind-mounted on `path`) or UNPIN (its mount detached). */
export function encodeNetnsRequest(
  type: typeof Req.pin | typeof Req.unpin,
  id: number,
  path: string,
  shareDir = false,
): Buffer {
  const flag = type === Req.pin ? 1 : 0;
  const n = Buffer.byteLength(path);
  const buf = Buffer.allocUnsafe(headerBytes + flag + 4 + n);
  header(buf, type, id, flag + 4 + n);
  if (flag) buf[headerBytes] = shareDir ? 1 : 0;
  buf.writeUInt32LE(n, headerBytes + flag);
  buf.write(path, headerBytes + flag + 4);
  return buf;
}

/**
 * READ: u8 flags (1: O_NOFOLLOW), u32 most bytes per file, the directory (u32 length, bytes),
 * u32 count, then each name (u32 length, bytes).
 */
export function encodeFileRead(
  id: number,
  dir: string,
  names: readonly string[],
  nofollow: boolean,
  maxBytes: number,
): Buffer {
  let payload = 13 + Buffer.byteLength(dir);
  for (const name of names) payload += 4 + Buffer.byteLength(name);
  const buf = Buffer.allocUnsafe(headerBytes + payload);
  header(buf, FileReq.read, id, payload);
  buf[headerBytes] = nofollow ? 1 : 0;
  buf.writeUInt32LE(Math.min(Math.max(0, Math.floor(maxBytes)), maxFileBytes), headerBytes + 1);
  let at = putText(buf, headerBytes + 5, dir);
  buf.writeUInt32LE(names.length, at);
  at += 4;
  for (const name of names) at = putText(buf, at, name);
  return buf;
}

/**
 * The largest file a READ may answer with its bytes: its FILE frame (9 bytes of header, 5 of
 * index and status) stays within the largest frame read.
 */
export const maxFileBytes = 1024 * 1024 - 64;

/**
 * Splits the helper's output into frames. Chunks may end mid-frame; the rest is kept for the
 * next chunk. A frame shorter than its header means the stream is not the helper's.
 */
export class FrameReader {
  private pending: Buffer | undefined;

  /** Calls `onFrame` for every complete frame in `chunk`; throws on a malformed frame. */
  push(chunk: Buffer, onFrame: (frame: Frame) => void): void {
    let buf = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    let at = 0;
    while (buf.length - at >= headerBytes) {
      const length = buf.readUInt32LE(at);
      if (length < 5 || length > maxFrameBytes) {
        throw new SpawnerError(`spawner protocol: frame length ${length}`);
      }
      const end = at + 4 + length;
      if (end > buf.length) break;
      onFrame({
        type: buf[at + 4],
        id: buf.readUInt32LE(at + 5),
        payload: buf.subarray(at + headerBytes, end),
      });
      at = end;
    }
    if (at < buf.length) {
      buf = buf.subarray(at);
      this.pending = Buffer.from(buf);
    }
  }
}
