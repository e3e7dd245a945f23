/**
 * The checker's plugin calls, made as a runtime makes them but with every `CNI_*` variable and
 * every stdin byte under the rule's control (a rule may leave one out or spell it wrong), in a
 * host namespace of the checker's own so nothing the plugin does reaches the machine. Each
 * call is recorded: the error-format rule reads every failure the plugin printed.
 */
import { dirname } from "node:path";
import { PluginEnv } from "../../invoke/plugin-env.js";
import { runPlugin } from "../../invoke/run-plugin.js";
import { pluginStarter } from "../../invoke/spawner/launcher.js";
import { selectLauncher } from "../../invoke/spawner/select.js";
import { createNetns, execInNetns, removeNetns } from "../../netns/index.js";
import { runInNetns } from "../run.js";

/** One plugin call as a rule asks for it. */
export interface CallSpec {
  /** CNI_COMMAND; undefined leaves the variable out. */
  command: string | undefined;
  /** The stdin bytes (a config, or anything a rule wants to send). */
  stdin: Uint8Array | string;
  containerID?: string | undefined;
  netns?: string | undefined;
  ifName?: string | undefined;
  /** Variables to leave out although given above (CNI_NETNS, ...). */
  omit?: readonly string[];
}

/** How a call ended. */
export interface CallOutcome {
  spec: CallSpec;
  exitCode: number | undefined;
  signal: string | undefined;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

let counter = 0;

/** A pod: a fresh namespace and the attachment's names. */
export interface Pod {
  containerID: string;
  ifName: string;
  netns: string;
}

/** The plugin under check, its host namespace, and every call made. */
export class CheckSession {
  readonly calls: CallOutcome[] = [];
  private readonly pods: string[] = [];
  private readonly starter = pluginStarter(selectLauncher(undefined));

  private constructor(
    readonly plugin: string,
    readonly hostNetns: string,
    readonly cniPath: string,
    private readonly timeoutMs: number,
    /** The caller's signal: once it fires, the check stops. */
    readonly signal: AbortSignal | undefined,
    /**
     * The network name of every config the session sends: its own, so a GC the checker sends
     * never names a real network of the machine, nor another check's.
     */
    readonly networkName: string,
  ) {}

  /** A session with a host namespace of its own (loopback up, forwarding on). */
  static async open(
    plugin: string,
    path: readonly string[],
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<CheckSession> {
    const id = `lcnicheck-${process.pid}-${++counter}`;
    const host = await createNetns(`${id}-host`);
    try {
      await runInNetns(host, ["ip", "link", "set", "lo", "up"]);
      await runInNetns(host, ["sysctl", "-q", "-w", "net.ipv4.ip_forward=1"]);
      // IPv6 forwarding where the namespace has IPv6 (as testHost).
      await execInNetns(host, ["sysctl", "-q", "-w", "net.ipv6.conf.all.forwarding=1"]);
    } catch (error) {
      await removeNetns(host);
      throw error;
    }
    const cniPath = [...new Set([...path, dirname(plugin)])].join(":");
    return new CheckSession(plugin, host, cniPath, timeoutMs, signal, id);
  }

  /** A fresh pod namespace and attachment names, removed by {@link close}. */
  async pod(): Promise<Pod> {
    const n = ++counter;
    const netns = await createNetns(`lcnicheck-${process.pid}-${n}-pod`);
    this.pods.push(netns);
    return { containerID: `lcnicheck-${process.pid}-${n}`, ifName: "eth0", netns };
  }

  /** Removes a pod's namespace now (the DEL-after-netns-gone rule). */
  async removePod(pod: Pod): Promise<void> {
    await removeNetns(pod.netns);
  }

  /** Runs the plugin once, in the host namespace. */
  async call(spec: CallSpec): Promise<CallOutcome> {
    this.signal?.throwIfAborted();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
    };
    const set = (key: string, value: string | undefined) => {
      if (value !== undefined && !spec.omit?.includes(key)) env[key] = value;
    };
    set("CNI_COMMAND", spec.command);
    set("CNI_CONTAINERID", spec.containerID);
    set("CNI_NETNS", spec.netns);
    set("CNI_IFNAME", spec.ifName);
    set("CNI_PATH", this.cniPath);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const outcome = await runPlugin(this.plugin, {
      env: PluginEnv.ofObject(env),
      stdin: typeof spec.stdin === "string" ? new TextEncoder().encode(spec.stdin) : spec.stdin,
      signal: this.signal === undefined ? timeout : AbortSignal.any([timeout, this.signal]),
      graceMs: 1000,
      maxOutputBytes: 1024 * 1024,
      launcher: this.starter,
      netns: this.hostNetns,
    });
    const text = new TextDecoder();
    const stdout = text.decode(outcome.stdout);
    let json: unknown;
    try {
      json = JSON.parse(stdout);
    } catch {
      json = undefined;
    }
    const result: CallOutcome = {
      spec,
      exitCode: outcome.startError === undefined ? outcome.exitCode : undefined,
      signal: outcome.signal,
      timedOut: outcome.aborted && timeout.aborted,
      stdout,
      stderr:
        outcome.startError === undefined
          ? text.decode(outcome.stderr)
          : `cannot start: ${outcome.startError.message}`,
      json,
    };
    this.calls.push(result);
    return result;
  }

  /** The `ip -o link` names of a namespace (the pod's, or the host's). */
  async links(netns: string = this.hostNetns): Promise<Map<string, string>> {
    const run = await execInNetns(netns, ["ip", "-o", "-d", "link", "show"]);
    const out = new Map<string, string>();
    for (const line of run.stdout.split("\n")) {
      const match = /^\d+: ([^:@]+)[@:]/.exec(line);
      if (match === null) continue;
      const kind = / (veth|bridge|macvlan|ipvlan|ifb|vlan|vxlan|dummy|tun|vrf) /.exec(line);
      out.set(match[1], kind?.[1] ?? "other");
    }
    return out;
  }

  /** Removes every pod namespace and the host namespace. */
  async close(): Promise<void> {
    for (const pod of this.pods) await removeNetns(pod).catch(() => undefined);
    await removeNetns(this.hostNetns).catch(() => undefined);
  }
}
