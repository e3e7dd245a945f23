// NODE_DEBUG=libcni is read when the process starts: hence a child process running the built
// library. One line per pod-level call (operation, pod, duration, outcome), beside the verb
// and exec lines test/api/debug-log.test.ts covers.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Dirs, dirs, writeNetwork } from "./helpers.js";

const root = join(import.meta.dirname, "../..");
const run = promisify(execFile);

// A network whose one plugin answers ADD with a minimal 1.0.0 result and everything else empty.
const script = `
import { FakeExec } from ${JSON.stringify(join(root, "dist/invoke/index.js"))};
import { loadNetworks } from ${JSON.stringify(join(root, "dist/runtime/index.js"))};
const [confDir, cacheDir] = process.argv.slice(1);
const exec = new FakeExec();
exec.findInPathCall.returns.path = "/fake/p";
exec.execPluginCall.handler = (call) =>
  new TextDecoder().decode(call.stdinData).includes('"prevResult"') || !call.environ?.includes("CNI_COMMAND=ADD")
    ? ""
    : '{"cniVersion":"1.0.0"}';
const rt = await loadNetworks({ confDir, cacheDir, exec });
await rt.setupPod({ id: "p1", netns: "/run/netns/p1" });
await rt.teardownPod("p1");
await rt.checkPod("p1").catch(() => {});
`;

describe("debug log of libcni/runtime", () => {
  let d: Dirs;
  beforeEach(async () => {
    d = await dirs();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["fake"]);
  });
  afterEach(() => d.cleanup());

  it("writes one line per pod-level call with its outcome", async () => {
    const { stderr } = await run(
      process.execPath,
      ["--input-type=module", "-e", script, d.confDir, d.cacheDir],
      { env: { ...process.env, NODE_DEBUG: "libcni" } },
    );
    const pods = stderr
      .split("\n")
      .filter((l) => / pod /.test(l))
      .map((l) => l.replace(/^LIBCNI \d+: /, "").replace(/duration=[\d.]+ms/, "duration=Xms"));
    expect(pods).toEqual([
      "pod setup pod=p1 duration=Xms outcome=ok",
      "pod teardown pod=p1 duration=Xms outcome=ok",
      expect.stringMatching(/^pod check pod=p1 duration=Xms outcome=error error="/),
    ]);
    // The verbs inside the setup have their own lines.
    expect(stderr).toMatch(/verb ADD network="a" container=p1 ifname=eth0 /);
  });
});
