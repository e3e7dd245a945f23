// Upstream issue #684: callbacks get an abort signal that fires on SIGTERM. Real processes,
// real signals: a plugin built with skel is started, and signalled once its ADD is running.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { pluginMainWithError } from "../../src/skel/index.js";
import { abortOnSigterm } from "../../src/skel/sigterm.js";
import { pluginSupports } from "../../src/version/index.js";
import { Collector } from "./harness.js";
import { type RunningPlugin, reap, requireBuild, startPlugin } from "./spawn.js";

const run = promisify(execFile);
const plugin = fileURLToPath(new URL("./fixtures/signal-plugin.mjs", import.meta.url));
const addEnv = {
  CNI_COMMAND: "ADD",
  CNI_CONTAINERID: "c1",
  CNI_NETNS: "/some/netns",
  CNI_IFNAME: "eth0",
  CNI_PATH: "/opt/cni/bin",
};
const config = `{"name":"sig","cniVersion":"1.0.0"}`;

let running: RunningPlugin | undefined;

beforeAll(requireBuild);
afterEach(async () => {
  await reap(running);
  running = undefined;
});

describe("SIGTERM during a callback", () => {
  it("aborts the callback's signal; the plugin reports the reason as error 999 and exits 1", async () => {
    running = startPlugin(plugin, { ...addEnv, SKEL_TEST_MODE: "cooperate" }, config);
    await running.stderrIncludes("ready");
    running.child.kill("SIGTERM");
    const run = await running.done;
    expect(run.exitCode).toBe(1);
    expect(run.signal).toBeNull();
    expect(run.stdout).toBe('{\n    "code": 999,\n    "msg": "plugin received SIGTERM"\n}');
  });

  it("lets a callback that ignores the signal be killed by a second SIGTERM", async () => {
    running = startPlugin(plugin, { ...addEnv, SKEL_TEST_MODE: "ignore" }, config);
    await running.stderrIncludes("ready");
    running.child.kill("SIGTERM");
    // The first SIGTERM only aborts the signal: the process lives on.
    await new Promise((r) => setTimeout(r, 300));
    expect(running.child.exitCode).toBeNull();
    expect(running.child.signalCode).toBeNull();
    running.child.kill("SIGTERM");
    const run = await running.done;
    expect(run.signal).toBe("SIGTERM");
    expect(run.stdout).toBe("");
  });
});

describe("abortOnSigterm (in-process: the handler is called directly, no signal is sent)", () => {
  it("installs one SIGTERM listener that aborts with the SIGTERM reason, and removes it", async () => {
    const before = process.listeners("SIGTERM");
    const sigterm = abortOnSigterm();
    const added = process.listeners("SIGTERM").filter((l) => !before.includes(l));
    expect(added).toHaveLength(1);
    expect(sigterm.signal.aborted).toBe(false);
    (added[0] as () => void)();
    expect(sigterm.signal.aborted).toBe(true);
    expect(sigterm.signal.reason).toBeInstanceOf(DOMException);
    expect((sigterm.signal.reason as DOMException).name).toBe("AbortError");
    expect((sigterm.signal.reason as DOMException).message).toBe("plugin received SIGTERM");
    sigterm.dispose();
    expect(process.listeners("SIGTERM")).toEqual(before);
  });

  it("is installed by the dispatcher only while a callback runs, when no signal is given", async () => {
    const before = process.listenerCount("SIGTERM");
    let during = -1;
    let abortedBySigterm = false;
    const err = await pluginMainWithError(
      {
        add: async (_args, { signal }) => {
          during = process.listenerCount("SIGTERM");
          const ours = process.listeners("SIGTERM").at(-1) as () => void;
          ours();
          abortedBySigterm = signal.aborted;
        },
      },
      pluginSupports("1.0.0"),
      "",
      {
        env: addEnv,
        stdin: new TextEncoder().encode(config),
        stdout: new Collector(),
        stderr: new Collector(),
      },
    );
    expect(err).toBeUndefined();
    expect(during).toBe(before + 1);
    expect(abortedBySigterm).toBe(true);
    expect(process.listenerCount("SIGTERM")).toBe(before);
  });
});

describe("a callback's own write to a stdout nobody reads", () => {
  it("is no uncaught exception: the plugin ends as its callback does", async () => {
    // The pipe's reader is gone (`| true`): the write fails with EPIPE, which Node emits as
    // the stream's "error" event too; without a listener that was an uncaught exception.
    const own = fileURLToPath(new URL("./fixtures/own-write-plugin.mjs", import.meta.url));
    const env = Object.entries({ ...addEnv, PATH: process.env.PATH ?? "" })
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    const script = `echo '${config}' | env -i ${env} ${process.execPath} ${own} | true; echo "exit \${PIPESTATUS[1]}" >&2`;
    const { stderr } = await run("bash", ["-c", script]);
    expect(stderr).toBe("exit 0\n");
  });
});
