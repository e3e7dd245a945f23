/**
 * Shared setup for the runtime tests: a temporary conf dir and cache, and FakePlugins, a
 * FakeExec whose handler plays every plugin of every network (by the `type` and `name` on its
 * stdin), records each call and fails or hangs where a test says.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { FakeExec, type FakeExecPluginCall } from "../../src/invoke/index.js";
import {
  type CNIRuntime,
  loadNetworks,
  type NetworkSetChange,
  type NetworkWatcher,
} from "../../src/runtime/index.js";
import { CNIError } from "../../src/types/index.js";

/** One recorded plugin call. */
export interface Call {
  command: string;
  network: string;
  type: string;
  containerID: string;
  ifName: string;
  netns: string;
  args: string;
  stdin: string;
  config: Record<string, unknown>;
  /** The trace context the call was given (a real plugin gets it as TRACEPARENT, ...). */
  traceparent: string | undefined;
}

function envOf(environ: string[] | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const kv of environ ?? []) {
    const i = kv.indexOf("=");
    if (i > 0) env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return env;
}

/** Plugins played in process. Keys of `fail`/`hang`: `<network>/<COMMAND>` or `<network>/<type>/<COMMAND>`. */
export class FakePlugins {
  readonly exec = new FakeExec();
  readonly calls: Call[] = [];
  readonly fail = new Map<string, string>();
  readonly hang = new Set<string>();
  /** Called on each call before it answers (to hold it, e.g. for concurrency tests). */
  gate: ((call: Call) => Promise<void>) | undefined;
  private counter = 0;

  constructor() {
    this.exec.findInPathCall.returns.path = "/fake/plugin";
    this.exec.execPluginCall.handler = (call) => this.handle(call);
  }

  /** The calls of one command, as `<network>:<ifName>`. */
  seq(command?: string): string[] {
    return this.calls
      .filter((c) => command === undefined || c.command === command)
      .map((c) => `${c.command} ${c.network}:${c.ifName}`);
  }

  private matches(set: { has(k: string): boolean }, c: Call): string | undefined {
    for (const k of [`${c.network}/${c.command}`, `${c.network}/${c.type}/${c.command}`]) {
      if (set.has(k)) return k;
    }
    return undefined;
  }

  private async handle(exec: FakeExecPluginCall): Promise<string> {
    const env = envOf(exec.environ);
    const stdin = new TextDecoder().decode(exec.stdinData);
    const config = JSON.parse(stdin) as Record<string, unknown>;
    const call: Call = {
      command: env.CNI_COMMAND ?? "",
      network: String(config.name ?? ""),
      type: String(config.type ?? ""),
      containerID: env.CNI_CONTAINERID ?? "",
      ifName: env.CNI_IFNAME ?? "",
      netns: env.CNI_NETNS ?? "",
      args: env.CNI_ARGS ?? "",
      stdin,
      config,
      traceparent: exec.traceContext?.traceparent,
    };
    const untilAborted = () =>
      new Promise<void>((_, reject) => {
        const signal = exec.signal;
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    if (call.command === "VERSION") {
      // VERSION's stdin names no network: `hang.add("VERSION")` holds every one.
      if (this.hang.has("VERSION")) await untilAborted();
      return '{"cniVersion":"1.1.0","supportedVersions":["0.3.1","0.4.0","1.0.0","1.1.0"]}';
    }
    this.calls.push(call);
    if (this.gate) await this.gate(call);
    if (this.matches(this.hang, call)) await untilAborted();
    const failKey = this.matches(this.fail, call);
    if (failKey) throw new CNIError(11, this.fail.get(failKey) ?? "failed");
    if (call.command !== "ADD") return "";
    if (config.prevResult !== undefined) {
      return JSON.stringify({ ...(config.prevResult as object), cniVersion: config.cniVersion });
    }
    this.counter++;
    return JSON.stringify({
      cniVersion: config.cniVersion,
      interfaces: [
        { name: `veth${this.counter}`, mac: "02:00:00:00:00:01" },
        {
          name: call.ifName,
          mac: `02:00:00:00:01:${(this.counter % 256).toString(16).padStart(2, "0")}`,
          sandbox: call.netns,
        },
      ],
      ips: [
        {
          interface: 1,
          address: `10.${this.counter % 250}.0.2/24`,
          gateway: `10.${this.counter % 250}.0.1`,
        },
      ],
      routes: [{ dst: "0.0.0.0/0", gw: `10.${this.counter % 250}.0.1` }],
      dns: { nameservers: ["10.0.0.10"] },
    });
  }
}

/** A temporary conf dir and cache dir. */
export interface Dirs {
  base: string;
  confDir: string;
  cacheDir: string;
  cleanup(): Promise<void>;
}

export async function dirs(): Promise<Dirs> {
  const base = await mkdtemp(join(tmpdir(), "libcni-rt-"));
  const confDir = join(base, "net.d");
  const cacheDir = join(base, "cache");
  await mkdir(confDir);
  await mkdir(cacheDir);
  return { base, confDir, cacheDir, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** The runtime suites' usual fixture: its fields are set anew before each test. */
export interface TwoNetworks {
  d: Dirs;
  fake: FakePlugins;
  /** A runtime over the dirs, its plugins played by `fake`. */
  load(): Promise<CNIRuntime>;
}

/**
 * Before each test: temporary dirs, FakePlugins and the networks `write` puts in the conf dir;
 * the dirs removed after it. Call at a suite's top level.
 */
function fakeFixture(write: (confDir: string) => Promise<unknown>): TwoNetworks {
  const t = {
    load: () => loadNetworks({ confDir: t.d.confDir, cacheDir: t.d.cacheDir, exec: t.fake.exec }),
  } as TwoNetworks;
  beforeEach(async () => {
    t.d = await dirs();
    t.fake = new FakePlugins();
    await write(t.d.confDir);
  });
  afterEach(() => t.d.cleanup());
  return t;
}

/** {@link fakeFixture} with network a (bridge) and network b (macvlan), at 1.0.0. */
export const twoNetworks = (): TwoNetworks =>
  fakeFixture(async (confDir) => {
    await writeNetwork(confDir, "10-a.conflist", "a", ["bridge"]);
    await writeNetwork(confDir, "20-b.conflist", "b", ["macvlan"]);
  });

/** {@link fakeFixture} with network a (bridge) at 1.1.0, the version whose plugins GC. */
export const oneNetwork = (): TwoNetworks =>
  fakeFixture((confDir) => writeNetwork(confDir, "10-a.conflist", "a", ["bridge"], "1.1.0"));

/** {@link Dirs} with network "net" of one real plugin, `rec`, that records its calls. */
export interface RecordingDirs extends Dirs {
  /** The plugin dir holding `rec`. */
  bin: string;
  /** The calls so far, one line each: the command and the recorded variable's value. */
  calls(): Promise<string[]>;
}

/**
 * A conf dir whose network "net" is a recording shell plugin (for tests that run real
 * processes): each call appends `$CNI_COMMAND $<variable>` to a log and answers an empty 1.0.0
 * result.
 */
export async function recordingNetwork(
  variable: "CNI_NETNS" | "CNI_IFNAME",
): Promise<RecordingDirs> {
  const d = await dirs();
  const bin = join(d.base, "bin");
  const log = join(d.base, "calls.log");
  await mkdir(bin);
  await writeFile(
    join(bin, "rec"),
    `#!/bin/sh\necho "$CNI_COMMAND $${variable}" >> '${log}'\ncat > /dev/null\nprintf '{"cniVersion":"1.0.0"}'\n`,
  );
  await chmod(join(bin, "rec"), 0o755);
  await writeNetwork(d.confDir, "10-net.conflist", "net", ["rec"]);
  const calls = () =>
    readFile(log, "utf8").then(
      (t) => t.split("\n").filter((l) => l !== ""),
      () => [],
    );
  return { ...d, bin, calls };
}

/** Writes a conflist `<file>` for network `name` with plugins of the given types (or objects). */
export async function writeNetwork(
  confDir: string,
  file: string,
  name: string,
  plugins: (string | Record<string, unknown>)[] = ["fake"],
  cniVersion = "1.0.0",
): Promise<string> {
  const path = join(confDir, file);
  const list = {
    cniVersion,
    name,
    plugins: plugins.map((p) => (typeof p === "string" ? { type: p } : p)),
  };
  await writeFile(path, JSON.stringify(list, null, 2));
  return path;
}

/** Resolves with the next `change` of a watcher whose set satisfies `until`. */
export function nextChange(
  w: NetworkWatcher,
  until: (c: NetworkSetChange) => boolean = () => true,
): Promise<NetworkSetChange> {
  return new Promise((resolve) => {
    const on = (c: NetworkSetChange) => {
      if (!until(c)) return;
      w.off("change", on);
      resolve(c);
    };
    w.on("change", on);
  });
}
