/**
 * The checker's plugin calls, made as a runtime makes them but with every `CNI_*` variable and
 * stdin byte under the rule's control, in a host namespace of the checker's own. Each call is
 * recorded (error-format reads them all); after each (the last of calls run together), what
 * the plugin left running is ended and recorded for no-leftover-processes (leftovers.ts).
 */
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import {
  type LaunchedChild,
  type PluginStarter,
  pluginStarter,
  selectLauncher,
} from "../../engines/plugin-start.js";
import { attempt } from "../../internal/error-message.js";
import { callPlugin, type PluginCallOutcome } from "../../invoke/plugin-call.js";
import { createNetns, execInNetns, removeNetns } from "../../netns/index.js";
import { checkNamePrefix, labelledTestName, uniqueTestName } from "../names.js";
import { enableForwarding, runInNetns } from "../run.js";
import { sweepLeftoversOnce } from "../sweep.js";
import { endLeftovers, type Leftover, type PluginGroup, pluginGroup } from "./leftovers.js";

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
  /** It hung: still running after `timeoutMs`, it was stopped (an abort stops the whole check). */
  timedOut: boolean;
  /** The per-call limit the call ran under, in milliseconds. */
  timeoutMs: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

/** A pod: a fresh namespace and the attachment's names. */
export interface Pod {
  containerID: string;
  ifName: string;
  netns: string;
}

/** What a call left running, found once its calls were done, and ended by the checker. */
export interface LeftoverRecord extends Leftover {
  /** The verbs of the calls it may come from (all of those run together), e.g. `ADD`. */
  after: string;
  /** The rule and version running then, e.g. `add-result [1.0.0]`. */
  during: string;
}

/** The namespace of a path (its nsfs inode), as /proc/<pid>/ns/net names it. */
async function namespaceId(path: string): Promise<string | undefined> {
  return stat(path).then(
    (st) => `net:[${st.ino}]`,
    () => undefined,
  );
}

/** The plugin under check, its host namespace, and every call made. */
export class CheckSession {
  readonly calls: CallOutcome[] = [];
  /** The processes calls left running (each ended by the checker). */
  readonly leftovers: LeftoverRecord[] = [];
  /** What runs now (set by the checker before each rule), for the leftovers' record. */
  during = "";
  private readonly pods: string[] = [];
  private readonly base = pluginStarter(selectLauncher(undefined));
  /** The check's namespaces, by nsfs id: pinned by it, so a process in one is the plugin's. */
  private readonly namespaces = new Map<string, "host" | "pod">();
  private inFlight = 0;
  /** The look for leftovers under way: no call starts meanwhile (it would pass for a daemon). */
  private looking: Promise<void> | undefined;
  /** The calls since the last look: their verbs and process groups (pluginGroup). */
  private finished: { command: string; group: Promise<PluginGroup> | undefined }[] = [];

  private constructor(
    readonly plugin: string,
    readonly hostNetns: string,
    readonly cniPath: string,
    readonly timeoutMs: number,
    readonly signal: AbortSignal | undefined,
    /** The name of every config sent: its own, so its GC never names another network. */
    readonly networkName: string,
  ) {}

  /** A session with a host namespace of its own; the process's first sweeps (sweep.ts). */
  static async open(
    plugin: string,
    path: readonly string[],
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<CheckSession> {
    await sweepLeftoversOnce();
    const id = await uniqueTestName(undefined, checkNamePrefix);
    const host = await createNetns(labelledTestName(id, "host"));
    try {
      await runInNetns(host, ["ip", "link", "set", "lo", "up"]);
      await enableForwarding(host);
    } catch (error) {
      await removeNetns(host);
      throw error;
    }
    const cniPath = [...new Set([...path, dirname(plugin)])].join(":");
    const session = new CheckSession(plugin, host, cniPath, timeoutMs, signal, id);
    const ns = await namespaceId(host);
    if (ns !== undefined) session.namespaces.set(ns, "host");
    return session;
  }

  /** A fresh pod namespace and attachment names, removed by {@link close}. */
  async pod(): Promise<Pod> {
    const id = await uniqueTestName(undefined, checkNamePrefix);
    const netns = await createNetns(labelledTestName(id, "pod"));
    this.pods.push(netns);
    const ns = await namespaceId(netns);
    if (ns !== undefined) this.namespaces.set(ns, "pod");
    return { containerID: id, ifName: "eth0", netns };
  }

  /** Removes a pod's namespace now (the DEL-after-netns-gone rule). */
  async removePod(pod: Pod): Promise<void> {
    // A namespace's id is reused once it is gone: it no longer names this check's.
    const ns = await namespaceId(pod.netns);
    await removeNetns(pod.netns);
    if (ns !== undefined) this.namespaces.delete(ns);
  }

  /** Runs the plugin once; with no other call running, ends what it left before resolving. */
  async call(spec: CallSpec): Promise<CallOutcome> {
    this.signal?.throwIfAborted();
    while (this.looking !== undefined) await this.looking.catch(() => undefined);
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
    let group: Promise<PluginGroup> | undefined;
    // The plugin leads its own process group; its start time is read at once, while it surely
    // holds its pid, so the hunt never takes a later process with that pid for it.
    const starter: PluginStarter = {
      start: (path, pluginEnv, run) => {
        const seen = (child: LaunchedChild) => {
          if (child.pid !== undefined) group = pluginGroup(child.pid);
          return child;
        };
        const child = this.base.start(path, pluginEnv, run);
        return child instanceof Promise ? child.then(seen) : seen(child);
      },
    };
    this.inFlight++;
    let outcome: PluginCallOutcome;
    try {
      outcome = await callPlugin(this.plugin, {
        env,
        stdin: spec.stdin,
        signal: this.signal,
        timeoutMs: this.timeoutMs,
        graceMs: 1000,
        maxOutputBytes: 1024 * 1024,
        launcher: starter,
        netns: this.hostNetns,
      });
    } finally {
      this.inFlight--;
      this.finished.push({ command: spec.command ?? "(no CNI_COMMAND)", group });
    }
    if (this.inFlight === 0) {
      this.looking = this.endLeftovers().finally(() => {
        this.looking = undefined;
      });
      await this.looking;
    }
    const text = new TextDecoder();
    const stdout = text.decode(outcome.stdout);
    const json: unknown = attempt(() => JSON.parse(stdout));
    const result: CallOutcome = {
      spec,
      exitCode: outcome.startError === undefined ? outcome.exitCode : undefined,
      signal: outcome.signal,
      timedOut: outcome.timedOut,
      timeoutMs: this.timeoutMs,
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

  /** Ends what the calls done since the last look left running, and records it. */
  private async endLeftovers(): Promise<void> {
    const finished = this.finished;
    this.finished = [];
    const groups = await Promise.all(finished.flatMap((f) => (f.group ? [f.group] : [])));
    const found = await endLeftovers(groups, this.namespaces);
    if (found.length === 0) return;
    const verbs = [...new Set(finished.map((f) => f.command))].join(", ");
    for (const leftover of found)
      this.leftovers.push({ ...leftover, after: verbs, during: this.during });
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

  /** Removes the pods' and the host's namespaces, after ending what still runs in them. */
  async close(): Promise<void> {
    await endLeftovers([], this.namespaces).catch(() => undefined);
    for (const pod of this.pods) await removeNetns(pod).catch(() => undefined);
    await removeNetns(this.hostNetns).catch(() => undefined);
  }
}
