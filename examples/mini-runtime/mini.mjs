/**
 * mini: a small container runtime on libcni. runc makes the containers; libcni/netns makes
 * each pod's network namespace and libcni/runtime puts it on the networks of a CNI conf dir.
 * Read it top to bottom: `run` is the whole story, `rm` and `gc` undo it.
 *
 *   mini [GLOBAL OPTIONS] COMMAND ...     (the usage text below lists them)
 *
 * Crash safety comes from the order of things and from libcni: a run writes its record
 * before it makes anything, libcni records what a setup is about to attach before its first
 * plugin runs, and every undo step is a no-op for what is already gone. So whatever a killed
 * mini left, the next `mini gc` finds and removes.
 */
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createNetns, removeNetns } from "libcni/netns";
import { loadNetworks, networkDeviceData, PodNotFoundError } from "libcni/runtime";
import { validateContainerID } from "libcni/utils";
import { makeRootfs, writeBundle } from "./oci.mjs";
import { Runc } from "./runc.mjs";
import { ownerAlive, processOwner, Store } from "./store.mjs";

const usage = `usage: mini [GLOBAL OPTIONS] COMMAND ...

  rootfs DIR                              make a busybox root filesystem in DIR
  run --name NAME [--network NET]... [--publish HOSTPORT:CTRPORT[/tcp|udp]]...
      [--detach] ROOTFS -- CMD [ARG...]   run a container (foreground: its exit code is mini's)
  exec NAME -- CMD [ARG...]               run a command in a running container
  ps [--json]                             list the containers
  inspect NAME [--json]                   a container, its networks and their NetworkDeviceData
  rm [-f] NAME...                         stop (-f) and remove containers
  gc                                      remove containers whose process is gone, and what
                                          killed runs left in the CNI cache

global options:
  --root DIR           state, bundles, namespaces, CNI cache (default /run/mini)
  --conf-dir DIR       CNI network configurations (default /etc/cni/net.d)
  --bin-dir DIRS       CNI plugin dirs, colon-separated (default /opt/cni/bin:/usr/lib/cni)
  --plugin-netns PATH  run the plugins in this network namespace: the networks' host side
                       (bridges, host veth ends, NAT rules) is made there (default: mini's own)`;

class UsageError extends Error {}

// The name is the runc ID, libcni's container ID, the container's hostname (at most 64 bytes:
// sethostname refuses more, after the networks were set up) and a file name under --root.
const maxNameLength = 64;

/**
 * A container's name as a command takes it, checked before anything is looked up or made:
 * libcni's container ID rule (which keeps `../x` or `a/b` from naming a path outside --root)
 * and the hostname limit. A usage error (exit 2) otherwise.
 */
function checkName(command, name, flag = "") {
  if (validateContainerID(name) !== undefined || name.length > maxNameLength) {
    throw new UsageError(
      `${command}: ${flag}${JSON.stringify(name)}: 1 to ${maxNameLength} letters, digits, "_", "." and "-", starting with a letter or digit`,
    );
  }
  return name;
}

/** Parses a command's options; what follows `--` is the container's command. */
function parse(args, options) {
  const dash = args.indexOf("--");
  const { values, positionals } = parseArgs({
    args: dash < 0 ? args : args.slice(0, dash),
    options,
    allowPositionals: true,
  });
  return { values, positionals, command: dash < 0 ? [] : args.slice(dash + 1) };
}

/** `HOSTPORT:CTRPORT[/tcp|udp]` as a `portMappings` entry (libcni checks the port ranges). */
function parsePublish(spec) {
  const m = /^(\d+):(\d+)(?:\/(tcp|udp))?$/.exec(spec);
  if (m === null) throw new UsageError(`--publish ${spec}: expected HOSTPORT:CTRPORT[/tcp|udp]`);
  return { hostPort: Number(m[1]), containerPort: Number(m[2]), protocol: m[3] ?? "tcp" };
}

/** What every command works with: the store, runc, and (loaded once) the CNI runtime. */
class Mini {
  constructor(options) {
    this.store = new Store(resolve(options.root));
    this.runc = new Runc(this.store.runcRoot);
    this.networkOptions = {
      confDir: options["conf-dir"],
      binDirs: options["bin-dir"].split(":").filter(Boolean),
      cacheDir: this.store.cacheDir, // libcni's result cache: /var/lib/cni is the machine's
      loopback: true, // every pod gets `lo` up, as the built-in loopback network
      pluginNetns: options["plugin-netns"],
      timeout: 60_000,
    };
  }

  /** The networks of the conf dir and the pods on them (libcni/runtime). */
  runtime() {
    this.loaded ??= loadNetworks(this.networkOptions);
    return this.loaded;
  }

  /**
   * A container's state: runc's status (created, running, paused, stopped) while runc knows
   * it; else `creating` while the mini that runs it lives; else `dead` (a run was killed).
   */
  async status(name, runcStates) {
    const known = runcStates.get(name);
    if (known !== undefined) return { status: known.status, pid: known.pid || undefined };
    const record = await this.store.read(name);
    return { status: (await ownerAlive(record?.owner)) ? "creating" : "dead" };
  }
}

const live = (status) => ["created", "running", "paused", "creating"].includes(status);

/**
 * Undoes a container in the reverse order of `run`. Every step is a no-op for what is gone,
 * so it serves a failed run, `rm`, and `gc` after a crash alike; the record goes last.
 */
async function removeContainer(mini, name) {
  const netns = mini.store.netns(name);
  await mini.runc.delete(name);
  // DEL of every network, from libcni's cache: each as it was ADDed, also after a crash.
  await (await mini.runtime()).teardownPod({ id: name, netns });
  await removeNetns(netns, { dir: mini.store.netnsDir });
  await rm(mini.store.bundle(name), { recursive: true, force: true });
  await mini.store.remove(name);
}

async function run(mini, args) {
  const { values, positionals, command } = parse(args, {
    name: { type: "string" },
    network: { type: "string", multiple: true, default: [] },
    publish: { type: "string", short: "p", multiple: true, default: [] },
    detach: { type: "boolean", short: "d", default: false },
  });
  const name = checkName("run", values.name ?? "", "--name ");
  if (positionals.length !== 1 || command.length === 0) {
    throw new UsageError("run: expected ROOTFS -- CMD [ARG...]");
  }
  const rootfs = resolve(positionals[0]);
  const portMappings = values.publish.map(parsePublish);
  const runtime = await mini.runtime();
  const networks = values.network.length > 0 ? values.network : [runtime.defaultNetwork?.name];
  if (networks[0] === undefined) throw runtime.networkSet.notReady ?? new Error("no networks");
  // The runtime's loopback network comes first, named or not (`loopback: true`).
  const pod = {
    id: name,
    netns: mini.store.netns(name),
    networks,
    capabilities: { portMappings },
  };

  // 1. The record, before anything it names exists.
  const owner = await processOwner(process.pid);
  const created = new Date().toISOString();
  const detach = values.detach;
  await mini.store
    .create({ name, created, rootfs, command, networks, publish: values.publish, detach, owner })
    .catch((error) => {
      throw error.code === "EEXIST" ? new Error(`container ${name} already exists`) : error;
    });
  const bundle = mini.store.bundle(name);
  let exitCode;
  try {
    // 2. The pod's network namespace, pinned under the root.
    await createNetns(name, { dir: mini.store.netnsDir });
    // 3. Its networks: loopback, then each network (eth0, net1, ...), with the port mappings.
    //    A failed network is rolled back by libcni before it throws.
    const setup = await runtime.setupPod(pod);
    // 4. The bundle: config.json joins the pinned namespace; /etc files from the setup (each
    //    network's DNS, and the pod's addresses: those of its interfaces but lo).
    const addresses = networkDeviceData(setup).flatMap((d) => d.networkData.ips ?? []);
    await writeBundle(bundle, {
      name,
      rootfs,
      command,
      netns: pod.netns,
      dns: setup.dns,
      addresses,
    });
    if (process.env.MINI_TEST_PAUSE_BEFORE_RUNC) await pauseForTest(name);
    // 5. The container's process.
    if (detach) {
      await mini.runc.runDetached(name, bundle, join(bundle, "container.log"));
      console.log(name);
      return 0;
    }
    exitCode = await mini.runc.runForeground(name, bundle);
  } catch (error) {
    await removeContainer(mini, name).catch(() => undefined); // what is left, gc removes
    throw error;
  }
  // A foreground container is removed when it exits (runc has already removed its own part).
  await removeContainer(mini, name);
  return exitCode;
}

/** A test's hook: hold the run after setup, before runc, to be killed there (`mini gc` cleans). */
async function pauseForTest(name) {
  console.error(`mini: ${name}: paused before runc (MINI_TEST_PAUSE_BEFORE_RUNC)`);
  await new Promise((wake) => setTimeout(wake, 2 ** 31 - 1));
}

async function exec(mini, args) {
  const { positionals, command } = parse(args, {});
  if (positionals.length !== 1 || command.length === 0) {
    throw new UsageError("exec: expected NAME -- CMD [ARG...]");
  }
  return mini.runc.exec(checkName("exec", positionals[0]), command);
}

/** Everything known of a container: its record, its state, and its networks from the cache. */
async function containerInfo(mini, name, runcStates) {
  const record = await mini.store.read(name);
  if (record === undefined) throw new Error(`no such container: ${name}`);
  const { status, pid } = await mini.status(name, runcStates);
  let network;
  try {
    // The cached results: no plugin runs, so this answers for a dead container too.
    network = await (await mini.runtime()).podStatus({ id: name, netns: mini.store.netns(name) });
  } catch (error) {
    if (!(error instanceof PodNotFoundError)) throw error;
  }
  // KEP-4817's NetworkDeviceData: what a Kubernetes runtime would publish for each interface.
  const networkData = network === undefined ? [] : networkDeviceData(network);
  return {
    name,
    status,
    pid,
    created: record.created,
    command: record.command,
    ports: record.publish,
    ips: networkData.flatMap((d) => d.networkData.ips ?? []),
    record,
    network,
    networkData,
  };
}

async function ps(mini, args) {
  const { values } = parse(args, { json: { type: "boolean", default: false } });
  const states = await mini.runc.list();
  const names = (await mini.store.names()).sort();
  const rows = await Promise.all(names.map((name) => containerInfo(mini, name, states)));
  const summary = rows.map(({ record, network, networkData, ...row }) => row);
  if (values.json) return void console.log(JSON.stringify(summary, null, 2));
  const table = summary.map((r) => [
    r.name,
    r.status,
    r.pid ?? "-",
    r.ips.join(",") || "-",
    r.ports.join(",") || "-",
    r.command.join(" "),
  ]);
  printTable([["NAME", "STATUS", "PID", "IPS", "PORTS", "COMMAND"], ...table]);
}

/** Rows of cells as columns, two spaces apart. */
function printTable(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
  for (const row of rows) {
    console.log(
      row
        .map((cell, c) => String(cell).padEnd(widths[c]))
        .join("  ")
        .trimEnd(),
    );
  }
}

async function inspect(mini, args) {
  const { values, positionals } = parse(args, { json: { type: "boolean", default: false } });
  if (positionals.length !== 1) throw new UsageError("inspect: expected NAME");
  const d = await containerInfo(mini, checkName("inspect", positionals[0]), await mini.runc.list());
  const network = d.network;
  const info = {
    name: d.name,
    status: d.status,
    pid: d.pid,
    created: d.created,
    rootfs: d.record.rootfs,
    command: d.command,
    ports: d.ports,
    netns: mini.store.netns(d.name),
    bundle: mini.store.bundle(d.name),
    interfaces: network?.interfaces ?? [],
    dns: network?.dns ?? [],
    routes: network?.routes ?? [],
    attachments: (network?.attachments ?? []).map(({ result, ...a }) => a),
    problems: (network?.problems ?? []).map((p) => ({ ...p, error: String(p.error?.message) })),
    networkData: d.networkData,
  };
  if (values.json) return void console.log(JSON.stringify(info, null, 2));
  console.log(`${info.name}: ${info.status}${info.pid ? ` (pid ${info.pid})` : ""}`);
  console.log(`  command  ${info.command.join(" ")}`);
  console.log(`  netns    ${info.netns}`);
  console.log(`  ports    ${info.ports.join(", ") || "-"}`);
  for (const { network: net, networkData: n } of info.networkData) {
    const ips = (n.ips ?? []).join(", ") || "-";
    // interfaceName is left out when a plugin reported none (omitempty).
    const name = n.interfaceName ?? "-";
    console.log(`  ${name.padEnd(8)} ${net}  ${ips}  ${n.hardwareAddress ?? ""}`);
  }
  for (const dns of info.dns) console.log(`  dns      ${dns.network}: ${dns.nameservers ?? []}`);
  for (const p of info.problems) console.log(`  problem  ${p.network} (${p.ifName}): ${p.error}`);
}

async function rmCommand(mini, args) {
  const { values, positionals } = parse(args, {
    force: { type: "boolean", short: "f", default: false },
  });
  if (positionals.length === 0) throw new UsageError("rm: expected NAME...");
  // Every name first: a bad one removes none of them.
  for (const name of positionals) checkName("rm", name);
  const states = await mini.runc.list();
  for (const name of positionals) {
    if ((await mini.store.read(name)) === undefined) throw new Error(`no such container: ${name}`);
    const { status } = await mini.status(name, states);
    if (live(status) && !values.force) {
      throw new Error(`container ${name} is ${status}: use rm -f to stop and remove it`);
    }
    await removeContainer(mini, name);
  }
}

/**
 * Removes every container whose process is gone (stopped, or its run was killed), then has
 * libcni collect the rest: the cached attachments and interrupted setups of every pod that is
 * not live, such as a run killed before its record was read back by anyone.
 */
async function gc(mini) {
  const states = await mini.runc.list();
  const valid = [];
  const failures = [];
  await mini.store.removeStaleTemps();
  for (const name of await mini.store.names()) {
    const { status } = await mini.status(name, states);
    if (live(status)) {
      valid.push(name);
      continue;
    }
    try {
      await removeContainer(mini, name);
      console.log(`removed ${name} (${status})`);
    } catch (error) {
      failures.push(`${name}: ${error.message}`);
    }
  }
  const report = await (await mini.runtime()).gc(valid);
  for (const r of report.removed) console.log(`collected ${r.podID} ${r.network} (${r.ifName})`);
  if (failures.length > 0) throw new Error(`gc: ${failures.join("; ")}`);
}

async function rootfs(_mini, args) {
  const { positionals } = parse(args, {});
  if (positionals.length !== 1) throw new UsageError("rootfs: expected DIR");
  await makeRootfs(resolve(positionals[0]));
}

const commands = { rootfs, run, exec, ps, inspect, rm: rmCommand, gc };

/** Splits `[GLOBAL OPTIONS] COMMAND ARGS`: the command is the first word that is no option's. */
function splitCommand(argv) {
  let i = 0;
  while (i < argv.length && argv[i].startsWith("-")) {
    i += argv[i].includes("=") || argv[i] === "-h" || argv[i] === "--help" ? 1 : 2;
  }
  return [argv.slice(0, i), argv[i], argv.slice(i + 1)];
}

async function main(argv) {
  const [globalArgs, command, args] = splitCommand(argv);
  const { values } = parseArgs({
    args: globalArgs,
    options: {
      root: { type: "string", default: "/run/mini" },
      "conf-dir": { type: "string", default: "/etc/cni/net.d" },
      "bin-dir": { type: "string", default: "/opt/cni/bin:/usr/lib/cni" },
      "plugin-netns": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return void console.log(usage);
  if (command === undefined) throw new UsageError("no command");
  if (!Object.hasOwn(commands, command)) throw new UsageError(`unknown command: ${command}`);
  return commands[command](new Mini(values), args);
}

try {
  process.exitCode = (await main(process.argv.slice(2))) ?? 0;
} catch (error) {
  const isUsage = error instanceof UsageError || error.code?.startsWith?.("ERR_PARSE_ARGS");
  console.error(`mini: ${error.message}${isUsage ? `\n\n${usage}` : ""}`);
  // 125, as docker and podman: mini's own failure, told apart from a container's exit code.
  process.exitCode = isUsage ? 2 : 125;
}
