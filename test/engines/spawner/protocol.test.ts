/**
 * The spawner protocol's frames, and the wait status decoding, without the helper binary.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { decodeWaitStatus } from "../../../src/engines/spawner/child.js";
import {
  encodeEmpty,
  encodeFileRead,
  encodeNetnsRequest,
  encodeRun,
  encodeStdin,
  FileReq,
  type Frame,
  FrameReader,
  maxFileBytes,
  protocolVersion,
  Req,
} from "../../../src/engines/spawner/protocol.js";
import { SpawnerError } from "../../../src/errors/index.js";

function frames(...chunks: Buffer[]): Frame[] {
  const reader = new FrameReader();
  const out: Frame[] = [];
  for (const chunk of chunks) {
    reader.push(chunk, (f) => out.push({ ...f, payload: Buffer.from(f.payload) }));
  }
  return out;
}

describe("spawner protocol", () => {
  it("speaks the version the helper's source declares", async () => {
    const source = await readFile(new URL("../../../native/spawner.c", import.meta.url), "utf8");
    expect(/^#define PROTOCOL_VERSION (\d+)$/m.exec(source)?.[1]).toBe(String(protocolVersion));
  });

  it("encodes RUN as path, KEY=value entries each with its byte length, and the output cap", () => {
    const buf = encodeRun(7, "/opt/cni/bin/é", ["A=1", "CNI_COMMAND=ADD"], { outputCap: 4096 });
    const [frame] = frames(buf);
    expect(frame.type).toBe(Req.run);
    expect(frame.id).toBe(7);
    const p = Buffer.from(frame.payload);
    const pathLen = p.readUInt32LE(0);
    expect(p.subarray(4, 4 + pathLen).toString()).toBe("/opt/cni/bin/é");
    let at = 4 + pathLen;
    expect(p.readUInt32LE(at)).toBe(2);
    at += 4;
    const entries: string[] = [];
    for (let i = 0; i < 2; i++) {
      const n = p.readUInt32LE(at);
      entries.push(p.subarray(at + 4, at + 4 + n).toString());
      at += 4 + n;
    }
    expect(entries).toEqual(["A=1", "CNI_COMMAND=ADD"]);
    expect(p.readUInt32LE(at)).toBe(4096);
    expect(at + 4).toBe(p.length);
  });

  it("clamps the output cap to a u32", () => {
    const cap = (n: number): number => {
      const p = Buffer.from(frames(encodeRun(1, "/p", [], { outputCap: n }))[0].payload);
      return p.readUInt32LE(p.length - 4);
    };
    expect(cap(2 ** 40)).toBe(0xffffffff);
    expect(cap(Number.POSITIVE_INFINITY)).toBe(0xffffffff);
    expect(cap(0)).toBe(0);
    expect(cap(10.7)).toBe(10);
  });

  it("appends the arguments and the network namespace after the cap when a run has them", () => {
    const buf = encodeRun(3, "/bin/ip", [], {
      outputCap: 9,
      args: ["link", "é"],
      netns: "/run/netns/x",
    });
    const p = Buffer.from(frames(buf)[0].payload);
    let at = 4 + p.readUInt32LE(0) + 4;
    expect(p.readUInt32LE(at)).toBe(9);
    at += 4;
    expect(p.readUInt32LE(at)).toBe(2);
    at += 4;
    const strings: string[] = [];
    for (let i = 0; i < 3; i++) {
      const n = p.readUInt32LE(at);
      strings.push(p.subarray(at + 4, at + 4 + n).toString());
      at += 4 + n;
    }
    expect(strings).toEqual(["link", "é", "/run/netns/x"]);
    expect(at).toBe(p.length);
  });

  it("encodes PIN with its shared-dir flag and UNPIN with the path alone", () => {
    const [pin] = frames(encodeNetnsRequest(Req.pin, 4, "/run/netns/a", true));
    expect([pin.type, pin.id]).toEqual([Req.pin, 4]);
    const pp = Buffer.from(pin.payload);
    expect(pp[0]).toBe(1);
    expect(pp.subarray(5, 5 + pp.readUInt32LE(1)).toString()).toBe("/run/netns/a");
    const [unpin] = frames(encodeNetnsRequest(Req.unpin, 5, "/x"));
    const up = Buffer.from(unpin.payload);
    expect(up.readUInt32LE(0)).toBe(2);
    expect(up.subarray(4).toString()).toBe("/x");
  });

  it("sends a run's stdin and its end in the RUN's buffer when given", () => {
    const got = frames(
      encodeRun(9, "/p", ["A=1"], { outputCap: 100, stdin: new TextEncoder().encode("{}") }),
    );
    expect(got.map((f) => [f.type, f.id])).toEqual([
      [Req.run, 9],
      [Req.stdin, 9],
      [Req.stdinEnd, 9],
    ]);
    expect(Buffer.from(got[1].payload).toString()).toBe("{}");
  });

  it("sends stdin bytes and its end in one buffer", () => {
    const got = frames(encodeStdin(3, new TextEncoder().encode("{}")));
    expect(got.map((f) => [f.type, f.id, Buffer.from(f.payload).toString()])).toEqual([
      [Req.stdin, 3, "{}"],
      [Req.stdinEnd, 3, ""],
    ]);
  });

  it("splits stdin into frames of at most 1 MiB (the helper dies on one over 256 MiB)", () => {
    const data = new Uint8Array(2.5 * 2 ** 20).map((_, i) => i % 251);
    for (const buf of [
      encodeStdin(4, data),
      encodeRun(4, "/p", [], { outputCap: 1, stdin: data }),
    ]) {
      const got = frames(buf).filter((f) => f.type !== Req.run);
      // A frame's length counts its type and ID (5 bytes) too.
      const most = 2 ** 20 - 5;
      expect(got.map((f) => [f.type, f.id, f.payload.length])).toEqual([
        [Req.stdin, 4, most],
        [Req.stdin, 4, most],
        [Req.stdin, 4, data.length - 2 * most],
        [Req.stdinEnd, 4, 0],
      ]);
      expect(Buffer.concat(got.map((f) => f.payload)).equals(data)).toBe(true);
    }
    // No stdin: its end alone.
    expect(frames(encodeStdin(5, new Uint8Array())).map((f) => f.type)).toEqual([Req.stdinEnd]);
  });

  it("reassembles frames split across chunks at any byte", () => {
    const all = Buffer.concat([
      encodeEmpty(Req.close, 1),
      encodeStdin(2, new Uint8Array(300).fill(65)),
      encodeEmpty(Req.close, 0xffffffff),
    ]);
    for (let cut = 1; cut < all.length; cut += 7) {
      const got = frames(all.subarray(0, cut), all.subarray(cut));
      expect(got.map((f) => [f.type, f.id, f.payload.length])).toEqual([
        [Req.close, 1, 0],
        [Req.stdin, 2, 300],
        [Req.stdinEnd, 2, 0],
        [Req.close, 0xffffffff, 0],
      ]);
    }
  });

  it("encodes READ as flags, the size bound, the directory and each name with its byte length", () => {
    const [frame] = frames(encodeFileRead(9, "/etc/cni/net.d", ["a.conf", "é"], true, 1e12));
    expect([frame.type, frame.id]).toEqual([FileReq.read, 9]);
    const p = Buffer.from(frame.payload);
    expect(p[0]).toBe(1);
    // A bound past what one frame carries is the most a frame carries.
    expect(p.readUInt32LE(1)).toBe(maxFileBytes);
    const dirLen = p.readUInt32LE(5);
    expect(p.subarray(9, 9 + dirLen).toString()).toBe("/etc/cni/net.d");
    let at = 9 + dirLen;
    expect(p.readUInt32LE(at)).toBe(2);
    at += 4;
    const names: string[] = [];
    for (let i = 0; i < 2; i++) {
      const n = p.readUInt32LE(at);
      names.push(p.subarray(at + 4, at + 4 + n).toString());
      at += 4 + n;
    }
    expect(names).toEqual(["a.conf", "é"]);
    expect(at).toBe(p.length);
    expect(Buffer.from(frames(encodeFileRead(1, "/", [], false, 5))[0].payload)[0]).toBe(0);
  });

  it("rejects a stream that is not the helper's (text, say) at once", () => {
    expect(() => frames(Buffer.from("garbage from a wrong binary\n"))).toThrow(SpawnerError);
    expect(() => frames(Buffer.from([1, 0, 0, 0, 0, 0, 0, 0, 0]))).toThrow(SpawnerError);
  });
});

describe("wait status", () => {
  it("decodes exit codes and killing signals as Node reports them", () => {
    expect(decodeWaitStatus(0)).toEqual({ code: 0, signal: null });
    expect(decodeWaitStatus(3 << 8)).toEqual({ code: 3, signal: null });
    expect(decodeWaitStatus(255 << 8)).toEqual({ code: 255, signal: null });
    expect(decodeWaitStatus(15)).toEqual({ code: null, signal: "SIGTERM" });
    expect(decodeWaitStatus(9 | 0x80)).toEqual({ code: null, signal: "SIGKILL" }); // core dumped
    // A real-time signal has no Node name: Go's `signal 35`, never mistaken for an exit.
    expect(decodeWaitStatus(35)).toEqual({ code: null, signal: "signal 35" });
  });
});
