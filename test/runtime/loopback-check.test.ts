/**
 * go-cni#124 in checkPod (issue 42): with the runtime's loopback network, `lo` must be up in
 * the pod's netns; the loopback network's configuration (0.3.1) has no CHECK, so nothing else
 * would ever look. These are the parts that need no root: the `ip` output parser, a netns that
 * is gone (a failure), and when the look is made (on with the runtime's own exec, off with a
 * caller's, `checkLoopback` either way). lo up and down on a real namespace:
 * loopback-check.system.test.ts.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loopbackFlags } from "../../src/runtime/cached-pod.js";
import {
  type CNIRuntime,
  LoopbackDownError,
  loadNetworks,
  PodCheckError,
} from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins } from "./helpers.js";

let d: Dirs;
let fake: FakePlugins;

beforeEach(async () => {
  d = await dirs();
  fake = new FakePlugins();
  await writeFile(
    join(d.confDir, "10-a.conflist"),
    '{"cniVersion":"1.0.0","name":"a","plugins":[{"type":"p"}]}',
  );
});
afterEach(() => d.cleanup());

const load = (options: { checkLoopback?: boolean; loopback?: boolean } = {}): Promise<CNIRuntime> =>
  loadNetworks({
    confDir: d.confDir,
    cacheDir: d.cacheDir,
    exec: fake.exec,
    loopback: true,
    ...options,
  });

const skipped = 'configuration version "0.3.1" does not support the CHECK command';

describe("loopbackFlags", () => {
  it.each([
    [
      "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\\    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n",
      ["LOOPBACK", "UP", "LOWER_UP"],
    ],
    ["1: lo: <LOOPBACK> mtu 65536 qdisc noop state DOWN mode DEFAULT\n", ["LOOPBACK"]],
    ["1: lo: <> mtu 65536\n", []],
    ['Device "lo" does not exist.\n', undefined],
    ["", undefined],
    ["2: eth0: <BROADCAST,UP> mtu 1500\n", undefined],
  ])("%j", (output, flags) => {
    expect(loopbackFlags(output)).toEqual(flags);
  });
});

describe("checkPod looks at lo (checkLoopback)", () => {
  it("the pod's netns gone: the loopback attachment fails, the other CHECKs still run", async () => {
    const rt = await load({ checkLoopback: true });
    const netns = join(d.base, "gone");
    await rt.setupPod({ id: "p1", netns });
    fake.calls.length = 0;
    const error = await rt.checkPod("p1").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PodCheckError);
    const failures = (error as PodCheckError).failures;
    expect(failures.map((f) => [f.network, f.ifName])).toEqual([["cni-loopback", "lo"]]);
    const cause = failures[0]?.error as LoopbackDownError;
    expect(cause).toBeInstanceOf(LoopbackDownError);
    expect(cause.id).toBe("LIBCNI_ERR_LOOPBACK_DOWN");
    expect(cause.reason).toBe("no-netns");
    expect(cause.netns).toBe(netns);
    expect(cause.message).toBe(
      `check pod p1: lo cannot be up: ${netns} is not a network namespace`,
    );
    expect(fake.seq()).toEqual(["CHECK a:eth0"]);
  });

  it("off with a caller's Exec: lo stays as CHECK left it (skipped, not looked at)", async () => {
    const rt = await load();
    await rt.setupPod({ id: "p1", netns: join(d.base, "gone") });
    expect(await rt.checkPod("p1")).toEqual([
      { network: "cni-loopback", ifName: "lo", skipped },
      { network: "a", ifName: "eth0" },
    ]);
  });

  it("nothing to look at without the runtime's loopback network", async () => {
    const rt = await load({ checkLoopback: true, loopback: false });
    await rt.setupPod({ id: "p1", netns: join(d.base, "gone") });
    expect(await rt.checkPod("p1")).toEqual([{ network: "a", ifName: "eth0" }]);
  });
});
