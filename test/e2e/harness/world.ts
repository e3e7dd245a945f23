/**
 * One isolated e2e "machine": a host namespace that plays the runtime's side (bridges, host
 * veth ends, iptables NAT, ifb devices all land there), container namespaces, and temp dirs
 * for the plugin wrappers, the result cache and host-local's data. Nothing touches the real
 * host's network: every plugin is started through a wrapper that re-execs it inside the host
 * namespace with nsenter.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNetns, deleteNetns, netnsPath, uniqueName } from "./netns.js";
import { pluginSourceDir } from "./prereq.js";

/** Plugins the wrapper directory offers (the real ones, from {@link pluginSourceDir}). */
export const wrappedPlugins = [
  "bandwidth",
  "bridge",
  "firewall",
  "host-local",
  "loopback",
  "macvlan",
  "portmap",
  "ptp",
  "static",
  "tuning",
] as const;

/** One line of the wrappers' call log: who was run, for which attachment. */
export interface PluginCall {
  command: string;
  plugin: string;
  containerID: string;
  ifName: string;
}

/** A container: its namespace name and the path given to plugins as CNI_NETNS. */
export interface Container {
  /** The containerID used for it (also part of the namespace name). */
  id: string;
  /** The namespace name (for `inNetns`). */
  ns: string;
  /** `/run/netns/<ns>`. */
  netnsPath: string;
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function wrapperScript(plugin: string, hostNsPath: string, logFile: string): string {
  const real = join(pluginSourceDir, plugin);
  return [
    "#!/bin/sh",
    "# libcni e2e wrapper: log the call, then run the real plugin inside the test's host netns",
    "# so that nothing it creates (bridge, veth, iptables, ifb) reaches the machine's network.",
    `printf '%s %s %s %s\\n' "$CNI_COMMAND" ${shellQuote(plugin)} "$CNI_CONTAINERID" "$CNI_IFNAME" >> ${shellQuote(logFile)}`,
    `exec nsenter --net=${shellQuote(hostNsPath)} ${shellQuote(real)}`,
    "",
  ].join("\n");
}

/** An isolated set of namespaces and dirs; {@link E2EWorld.dispose} removes all of it. */
export class E2EWorld {
  /** The host namespace's name. */
  readonly hostNs: string;
  /** Root of this world's temp files. */
  readonly root: string;
  /** CNI_PATH: the wrapper scripts. */
  readonly binDir: string;
  /** The library's result cache dir. */
  readonly cacheDir: string;
  /** host-local's `dataDir`. */
  readonly ipamDir: string;
  /** The wrappers' call log. */
  readonly logFile: string;
  private readonly namespaces: string[] = [];
  private containerCount = 0;

  private constructor(hostNs: string, root: string) {
    this.hostNs = hostNs;
    this.root = root;
    this.binDir = join(root, "bin");
    this.cacheDir = join(root, "cache");
    this.ipamDir = join(root, "ipam");
    this.logFile = join(root, "calls.log");
  }

  /** Creates the host namespace (loopback up), the temp dirs and the wrappers. */
  static async create(label: string): Promise<E2EWorld> {
    const hostNs = uniqueName(`${label}-host`);
    const root = await mkdtemp(join(tmpdir(), `${uniqueName(label)}-`));
    const world = new E2EWorld(hostNs, root);
    await createNetns(hostNs, { loopbackUp: true });
    world.namespaces.push(hostNs);
    await mkdir(world.binDir);
    await writeFile(world.logFile, "");
    for (const plugin of wrappedPlugins) {
      const path = join(world.binDir, plugin);
      await writeFile(path, wrapperScript(plugin, netnsPath(hostNs), world.logFile));
      await chmod(path, 0o755);
    }
    return world;
  }

  /** A new container namespace (its `lo` left down, as a fresh container's is). */
  async container(label = "c"): Promise<Container> {
    this.containerCount += 1;
    const id = `${label}${this.containerCount}`;
    const ns = await this.netns(id);
    return { id, ns, netnsPath: netnsPath(ns) };
  }

  /** A new namespace of this world (e.g. the far end of a macvlan parent). */
  async netns(label: string, options: { loopbackUp?: boolean } = {}): Promise<string> {
    const ns = `${this.hostNs}-${label}`;
    await createNetns(ns, options);
    this.namespaces.push(ns);
    return ns;
  }

  /** Deletes a container namespace before the end of the test (as a runtime would). */
  async removeContainer(container: Container): Promise<void> {
    await deleteNetns(container.ns);
  }

  /** Every plugin call made through the wrappers so far, in order. */
  async calls(): Promise<PluginCall[]> {
    const text = await readFile(this.logFile, "utf8");
    return text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => {
        const [command = "", plugin = "", containerID = "", ifName = ""] = line.split(" ");
        return { command, plugin, containerID, ifName };
      });
  }

  /** Forgets the calls logged so far. */
  async clearCalls(): Promise<void> {
    await writeFile(this.logFile, "");
  }

  /** Removes every namespace (containers first) and the temp dirs. */
  async dispose(): Promise<void> {
    for (const ns of [...this.namespaces].reverse()) await deleteNetns(ns);
    this.namespaces.length = 0;
    await rm(this.root, { recursive: true, force: true });
  }
}
