// A result near the output cap (issue 12, amplification): the verbs hand it on byte for byte
// as for any result, and let the event loop run while they decode and encode it: an interval
// timer fires between one plugin's answer and the next plugin's start, where the work is all
// decoding and encoding, no I/O (no timing is asserted).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeCacheRecord } from "../../src/api/cache-record.js";
import { CNIConfig } from "../../src/api/index.js";
import { marshal } from "../../src/encoding/json.js";
import { utf8Decode } from "../../src/internal/bytes.js";
import { FakeExec } from "../../src/invoke/index.js";
import { Result100 } from "../../src/types/index.js";
import { confList } from "./helpers.js";

const routes = Array.from(
  { length: 60_000 },
  (_, i) => `{"dst":"10.${(i >> 8) & 255}.${i & 255}.0/24"${i % 3 ? "" : ',"gw":"10.0.0.1"'}}`,
);
const resultJSON = `{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/24"}],"routes":[${routes.join(",")}]}`;

/**
 * Runs `call` with a 1 ms interval timer, and the FakeExec answering `resultJSON`: the count
 * of timer ticks seen at each plugin call.
 */
async function ticksAtCalls(exec: FakeExec, call: () => Promise<unknown>): Promise<number[]> {
  let ticks = 0;
  const seen: number[] = [];
  exec.execPluginCall.handler = () => {
    seen.push(ticks);
    return resultJSON;
  };
  const timer = setInterval(() => ticks++, 1);
  try {
    await call();
    return seen;
  } finally {
    clearInterval(timer);
  }
}

describe("a result over 1 MiB", () => {
  let dir: string;
  let exec: FakeExec;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "libcni-api-large-"));
    exec = new FakeExec();
    exec.findInPathCall.returns.path = "/fake/plugin";
    exec.execPluginCall.returns.resultBytes = resultJSON;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const list = () =>
    confList('{"name":"big","cniVersion":"1.0.0","plugins":[{"type":"a"},{"type":"b"}]}');
  const rt = { containerID: "c", netNS: "/ns", ifName: "eth0" };
  const expected = (): Result100 => Result100.fromValue(JSON.parse(resultJSON));

  it("ADD passes it on and caches it byte for byte, and timers run between its stages", async () => {
    expect(resultJSON.length).toBeGreaterThan(1024 * 1024);
    const cni = new CNIConfig({ path: ["/p"], cacheDir: dir, exec, durableCache: false });
    const l = list();
    const [atA, atB] = await ticksAtCalls(exec, () => cni.addNetworkList(l, rt));
    // Between them: a's result decoded, b's stdin encoded with it as prevResult.
    expect(atB).toBeGreaterThan(atA);
    const stdin = JSON.parse(utf8Decode(exec.calls[1].stdinData));
    expect(marshal(stdin.prevResult)).toBe(marshal(expected()));
    // The exact bytes: sorted keys, the result's text between its neighbours (no diff printed).
    const wantStdin = `"prevResult":${marshal(expected())},"type":"b"}`;
    expect(utf8Decode(exec.calls[1].stdinData).endsWith(wantStdin)).toBe(true);
    const record = readFileSync(join(dir, "results", "big-c-eth0"));
    const want = encodeCacheRecord({
      containerId: "c",
      config: l.bytes,
      ifName: "eth0",
      networkName: "big",
      netns: "/ns",
      result: expected(),
    });
    expect(Buffer.compare(record, want)).toBe(0);
  });

  it("DEL sends the cached result as prevResult byte for byte, and timers run between stages", async () => {
    const cni = new CNIConfig({ path: ["/p"], cacheDir: dir, exec, durableCache: false });
    await cni.addNetworkList(list(), rt);
    const before = exec.calls.length;
    const [atB, atA] = await ticksAtCalls(exec, () => cni.delNetworkList(list(), rt));
    // Between them: a's stdin encoded with the cached result as prevResult.
    expect(atA).toBeGreaterThan(atB);
    const dels = exec.calls.slice(before);
    expect(dels).toHaveLength(2);
    // DEL runs the list in reverse: plugin b, then a.
    for (const [call, type] of [
      [dels[0], "b"],
      [dels[1], "a"],
    ] as const) {
      const want = `"prevResult":${marshal(expected())},"type":"${type}"}`;
      expect(utf8Decode(call.stdinData).endsWith(want)).toBe(true);
    }
  });
});
