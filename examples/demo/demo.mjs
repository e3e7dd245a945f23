#!/usr/bin/env node
/**
 * The libcni demo: takes the bundled network `hello` through the whole life of two
 * attachments with cnitool (this package's drop-in for upstream's), printing every command and
 * what it printed: version, validate, add (with a port mapping from CAP_ARGS), attachments,
 * check, del, gc (keeping one attachment with --valid, then a --dry-run and upstream's
 * collect-everything) and status.
 *
 *   npm run demo                  example plugins (examples/plugins/, written with libcni/skel),
 *                                 fake netns paths: any machine, no root
 *   npm run demo -- --real        Debian's bridge + host-local + portmap + tuning in network
 *                                 namespaces this script creates and removes (root, package
 *                                 containernetworking-plugins, iproute2, iptables, iputils-ping, util-linux)
 *
 * Everything lives in a temporary directory (configuration, plugin dir, result cache, plugin
 * state) that is removed at the end, as are the namespaces of --real. The built package is
 * needed (`npm run build`).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { access, constants, mkdtemp, readdir, readFile, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureDir, outputFile, outputJson, pathExists, readJson, remove } from "fs-extra/esm";

const here = fileURLToPath(new URL(".", import.meta.url));
const packageRoot = join(here, "..", "..");
const cnitoolBin = join(packageRoot, "dist", "cli", "main.js");
const realPluginDir = process.env.LIBCNI_DEMO_PLUGIN_DIR ?? "/usr/lib/cni";
const realPlugins = ["bridge", "host-local", "portmap", "tuning"];
const portMappings = { portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }] };

/** Runs a command; resolves to its exit code and output (never rejects for a non-zero exit). */
function run(file, args, { env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? 128, signal, stdout, stderr }));
  });
}

/** Runs a command that must succeed (set-up and tear-down of --real). */
async function must(file, args) {
  const r = await run(file, args);
  if (r.code !== 0) throw new Error(`${file} ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r;
}

/** cnitool's container ID for a netns path: `cnitool-` + 10 bytes of its SHA-512, in hex. */
function containerID(netnsPath) {
  return `cnitool-${createHash("sha512").update(netnsPath).digest().subarray(0, 10).toString("hex")}`;
}

/** Sets every `dataDir` of the configuration (plugins and their ipam) under `stateDir`. */
function relocateDataDirs(list, stateDir) {
  list.plugins.forEach((plugin, i) => {
    for (const conf of [plugin, plugin.ipam]) {
      if (conf && typeof conf.dataDir === "string") {
        conf.dataDir = join(stateDir, `${i}-${conf.type}`);
      }
    }
  });
  return list;
}

/** Whether a process is still running (EPERM: it is, but someone else's). */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Removes the namespaces of earlier --real runs that were killed before their clean-up. */
async function sweepLeftovers() {
  const names = await readdir("/run/netns").catch(() => []);
  for (const name of names) {
    const pid = Number(/^libcni-demo-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !isAlive(pid)) await run("ip", ["netns", "del", name]);
  }
}

class Demo {
  constructor(root, real) {
    this.root = root;
    this.real = real;
    this.bin = join(root, "bin");
    this.netd = join(root, "net.d");
    this.cache = join(root, "cache");
    this.state = join(root, "state");
    this.prefix = `libcni-demo-${process.pid}`;
    this.namespaces = [];
    this.failures = 0;
    this.env = { ...process.env, NETCONFPATH: this.netd, CNI_PATH: this.bin };
    delete this.env.CAP_ARGS;
    delete this.env.CNI_ARGS;
    delete this.env.CNI_IFNAME;
  }

  /** Paths shown with `$DEMO` for the temporary directory, so commands stay readable. */
  show(text) {
    return text.replaceAll(this.root, "$DEMO");
  }

  async setUp() {
    await ensureDir(this.bin);
    await ensureDir(this.state);
    const source = join(here, this.real ? "net.d-real" : "net.d", "10-hello.conflist");
    const list = relocateDataDirs(await readJson(source), this.state);
    await outputJson(join(this.netd, "10-hello.conflist"), list, { spaces: 2 });
    if (this.real) return this.setUpReal();
    // "Installing" the example plugins: CNI finds a plugin by its type in CNI_PATH.
    for (const name of ["hello-net", "hello-portmap"]) {
      await symlink(join(packageRoot, "examples", "plugins", `${name}.mjs`), join(this.bin, name));
    }
    // Any path does as a netns for plugins that do not enter it.
    this.blue = join(this.root, "netns", "blue");
    this.green = join(this.root, "netns", "green");
    await outputFile(this.blue, "");
    await outputFile(this.green, "");
  }

  async setUpReal() {
    const missing = [];
    if (process.getuid?.() !== 0) missing.push("root (the demo creates network namespaces)");
    for (const plugin of realPlugins) {
      try {
        await access(join(realPluginDir, plugin), constants.X_OK);
      } catch {
        missing.push(
          `${join(realPluginDir, plugin)} (apt-get install containernetworking-plugins)`,
        );
      }
    }
    for (const [tool, pkg] of [
      ["ip", "iproute2"],
      ["nsenter", "util-linux"],
      ["iptables", "iptables"],
      ["ping", "iputils-ping"],
    ]) {
      if ((await run("sh", ["-c", `command -v ${tool}`])).code !== 0)
        missing.push(`${tool} (apt-get install ${pkg})`);
    }
    if (missing.length > 0) throw new Error(`--real needs:\n  ${missing.join("\n  ")}`);
    await sweepLeftovers();
    // The host side lives in a namespace of its own: the bridge, the host ends of the veths and
    // the iptables rules never touch this machine's network.
    this.hostNs = `${this.prefix}-host`;
    for (const ns of [this.hostNs, `${this.prefix}-blue`, `${this.prefix}-green`]) {
      await must("ip", ["netns", "add", ns]);
      this.namespaces.push(ns);
    }
    await must("ip", ["-n", this.hostNs, "link", "set", "lo", "up"]);
    this.blue = `/run/netns/${this.prefix}-blue`;
    this.green = `/run/netns/${this.prefix}-green`;
    for (const plugin of realPlugins) {
      const wrapper = join(this.bin, plugin);
      await outputFile(
        wrapper,
        `#!/bin/sh\n# Run the real ${plugin} inside the demo's host namespace.\nexec nsenter --net=/run/netns/${this.hostNs} ${join(realPluginDir, plugin)}\n`,
        { mode: 0o755 },
      );
    }
  }

  /** Runs one cnitool command, prints it and its output; counts an unexpected exit code. */
  async cnitool(args, { env = {}, expect = 0, note } = {}) {
    const envText = Object.entries(env)
      .map(([k, v]) => `${k}='${v}' `)
      .join("");
    if (note) console.log(`\n# ${note}`);
    console.log(this.show(`$ ${envText}cnitool --cache-dir $DEMO/cache ${args.join(" ")}`));
    const r = await run(process.execPath, [cnitoolBin, "--cache-dir", this.cache, ...args], {
      env: { ...this.env, ...env },
    });
    const out = r.stdout + (r.stdout !== "" && !r.stdout.endsWith("\n") ? "\n" : "");
    if (out !== "") process.stdout.write(this.show(out));
    if (r.stderr !== "") process.stdout.write(this.show(r.stderr));
    if (r.code !== 0) console.log(`(exit status ${r.code})`);
    if (r.code !== expect) {
      this.failures += 1;
      console.log(`!! expected exit status ${expect}`);
    }
    return r;
  }

  /** Shows what the plugins did: the example plugins' state files, or the real interfaces. */
  async inspect(what) {
    if (!this.real) {
      console.log(`# ${what}: plugin state under $DEMO/state`);
      const lines = [];
      for (const dir of (await readdir(this.state)).sort()) {
        for (const sub of (await readdir(join(this.state, dir))).sort()) {
          for (const file of (await readdir(join(this.state, dir, sub))).sort()) {
            const text = await readFile(join(this.state, dir, sub, file), "utf8");
            lines.push(`  ${dir}/${sub}/${file}: ${this.show(text.trim())}`);
          }
        }
      }
      console.log(lines.length > 0 ? lines.join("\n") : "  (none left)");
      return;
    }
    console.log(
      `# ${what}: the containers' eth0 (bridge + host-local: address; tuning: mtu, somaxconn)`,
    );
    for (const [label, ns] of [
      ["blue", `${this.prefix}-blue`],
      ["green", `${this.prefix}-green`],
    ]) {
      const addr = await run("ip", ["-n", ns, "-br", "-4", "addr", "show", "dev", "eth0"]);
      if (addr.code !== 0) {
        console.log(`  ${label}: no eth0`);
        continue;
      }
      const link = await run("ip", ["-n", ns, "-o", "link", "show", "dev", "eth0"]);
      const mtu = /mtu (\d+)/.exec(link.stdout)?.[1];
      const somaxconn = await run("ip", [
        "netns",
        "exec",
        ns,
        "cat",
        "/proc/sys/net/core/somaxconn",
      ]);
      const address = addr.stdout.trim().replace(/\s+/g, " ");
      console.log(`  ${label}: ${address}, mtu ${mtu}, somaxconn ${somaxconn.stdout.trim()}`);
    }
    const nat = await run("ip", ["netns", "exec", this.hostNs, "iptables", "-t", "nat", "-S"]);
    const dnat = nat.stdout.split("\n").filter((line) => line.includes("--dport 8080"));
    console.log(`# portmap's DNAT rules for port 8080 in ${this.hostNs}: ${dnat.length}`);
    for (const line of dnat) console.log(`  ${line}`);
  }

  async steps() {
    const blueID = containerID(this.blue);
    const greenID = containerID(this.green);
    console.log(`DEMO=${this.root}`);
    console.log(
      `NETCONFPATH=$DEMO/net.d  CNI_PATH=$DEMO/bin  (plugins: ${this.real ? `wrappers running ${realPluginDir}/* in the namespace ${this.hostNs}` : "symlinks to examples/plugins/*.mjs"})`,
    );
    console.log(`blue netns:  ${this.show(this.blue)}  (container ID ${blueID})`);
    console.log(`green netns: ${this.show(this.green)}  (container ID ${greenID})`);
    const network = this.show(await readFile(join(this.netd, "10-hello.conflist"), "utf8"));
    console.log(`\n$DEMO/net.d/10-hello.conflist:\n${network}`);

    await this.cnitool(["version", this.real ? "bridge" : "hello-net"], {
      note: "which CNI versions does the first plugin speak? (an addition to upstream's cnitool)",
    });
    await this.cnitool(["validate", "hello"], {
      note: "are all plugins there, do they support the network's version? (an addition)",
    });
    await this.cnitool(["add", "hello", this.blue], {
      env: { CAP_ARGS: JSON.stringify(portMappings) },
      note: "attach the blue container, publishing port 8080 -> 80 (capability portMappings)",
    });
    console.log("");
    await this.cnitool(["add", "hello", this.green], { note: "attach the green container" });
    console.log("");
    await this.inspect("after add");
    if (this.real) {
      const ping = await run("ip", [
        "netns",
        "exec",
        `${this.prefix}-blue`,
        "ping",
        "-c",
        "1",
        "-W",
        "2",
        "10.22.0.1",
      ]);
      console.log(
        `# blue pings its gateway 10.22.0.1: ${ping.code === 0 ? "ok" : `failed\n${ping.stdout}${ping.stderr}`}`,
      );
      if (ping.code !== 0) this.failures += 1;
    }
    await this.cnitool(["attachments"], { note: "what the result cache holds (an addition)" });
    // CHECK without the mappings: portmap 1.1.1 fails CHECK of mappings on an IPv4-only
    // container (containernetworking/plugins#819).
    await this.cnitool(["check", "hello", this.blue], { note: "is blue still as ADD left it?" });
    // cnitool keeps no state of its own: DEL gets the capabilities from CAP_ARGS again, as with
    // upstream's (portmap removes the rules of the mappings it is given).
    await this.cnitool(["del", "hello", this.blue], {
      env: { CAP_ARGS: JSON.stringify(portMappings) },
      note: "detach blue (with the same CAP_ARGS, so that its port mapping goes too)",
    });
    await this.cnitool(["check", "hello", this.blue], {
      expect: 1,
      note: "CHECK after DEL fails: errors go to stderr with cobra's usage, exit status 1",
    });
    await this.cnitool(["gc", "--valid", `${greenID}:eth0`, "hello", this.green], {
      note: "garbage-collect, keeping green (gc --valid is an addition)",
    });
    await this.cnitool(["attachments", greenID], { note: "green survived" });
    await this.cnitool(["gc", "--dry-run", "hello", this.green], {
      note: "what would upstream's gc collect? (--dry-run is an addition: nothing runs)",
    });
    await this.cnitool(["gc", "hello", this.green], {
      note: "upstream's gc: no valid list, so every attachment of the network is collected (printed: an addition)",
    });
    await this.cnitool(["attachments"], { note: "the cache is empty" });
    await this.inspect("after gc");
    await this.cnitool(["status", "hello", this.green], { note: "is the network ready for ADDs?" });
  }

  async tearDown() {
    for (const ns of this.namespaces.reverse()) {
      await run("ip", ["netns", "del", ns]);
    }
    await remove(this.root);
  }
}

async function main() {
  const real = process.argv.includes("--real");
  if (!(await pathExists(cnitoolBin))) {
    console.error(`${cnitoolBin} is missing: run \`npm run build\` first`);
    return 1;
  }
  const demo = new Demo(await mkdtemp(join(tmpdir(), "libcni-demo-")), real);
  const stop = () => {
    demo.tearDown().finally(() => process.exit(130));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await demo.setUp();
    await demo.steps();
  } catch (error) {
    console.error(`demo failed: ${error instanceof Error ? error.message : error}`);
    demo.failures += 1;
  } finally {
    await demo.tearDown();
  }
  console.log(
    demo.failures === 0
      ? `\ndemo done (${real ? "real plugins" : "example plugins"}); temporary files${real ? " and namespaces" : ""} removed`
      : `\ndemo FAILED: ${demo.failures} problem(s), see above`,
  );
  return demo.failures === 0 ? 0 : 1;
}

process.exitCode = await main();
