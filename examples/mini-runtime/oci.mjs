/**
 * The container's files: a busybox root filesystem (`mini rootfs`), and each container's OCI
 * bundle: config.json, and the files it bind-mounts over the rootfs's /etc (the pod's
 * resolv.conf from its networks' DNS, its hostname, its hosts).
 */
import { execFile } from "node:child_process";
import { chmod, copyFile, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

/** A statically linked busybox (Debian's busybox-static): it needs nothing else in the rootfs. */
const busybox = process.env.MINI_BUSYBOX ?? "/bin/busybox";

/** Makes a busybox root filesystem in `dir`: /bin/busybox, one symlink per applet, /etc basics. */
export async function makeRootfs(dir) {
  for (const sub of ["bin", "dev", "etc", "proc", "sys", "tmp", "root"]) {
    await mkdir(join(dir, sub), { recursive: true });
  }
  await copyFile(busybox, join(dir, "bin/busybox"));
  await chmod(join(dir, "bin/busybox"), 0o755);
  const { stdout } = await promisify(execFile)(busybox, ["--list"]);
  for (const applet of stdout.split("\n")) {
    if (applet === "" || applet === "busybox") continue;
    await symlink("busybox", join(dir, "bin", applet)).catch((error) => {
      if (error.code !== "EEXIST") throw error;
    });
  }
  await writeFile(join(dir, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n");
  await writeFile(join(dir, "etc/group"), "root:x:0:\n");
  // Where each container's own files are mounted (the rootfs is shared, and mounted read-only).
  for (const file of ["resolv.conf", "hostname", "hosts"]) {
    await writeFile(join(dir, "etc", file), "", { flag: "a" });
  }
}

const unique = (values) => [...new Set(values)];

/** resolv.conf from the DNS each network reported, in attach order, each entry once. */
function resolvConf(dns) {
  const nameservers = unique(dns.flatMap((d) => d.nameservers ?? []));
  const search = unique(dns.flatMap((d) => d.search ?? []));
  const domain = dns.find((d) => d.domain)?.domain;
  const options = unique(dns.flatMap((d) => d.options ?? []));
  const lines = nameservers.map((ns) => `nameserver ${ns}`);
  // glibc and musl take the last of `search` and `domain`: a search list, when there is one.
  if (search.length > 0) lines.push(`search ${search.join(" ")}`);
  else if (domain) lines.push(`domain ${domain}`);
  if (options.length > 0) lines.push(`options ${options.join(" ")}`);
  if (lines.length === 0) lines.push("# no DNS from the pod's networks");
  return `${lines.join("\n")}\n`;
}

/** /etc/hosts: localhost, and the container's name on each of its addresses (CIDRs). */
function hosts(name, addresses) {
  const lines = ["127.0.0.1\tlocalhost", "::1\tlocalhost ip6-localhost ip6-loopback"];
  for (const cidr of addresses) lines.push(`${cidr.split("/")[0]}\t${name}`);
  return `${lines.join("\n")}\n`;
}

/**
 * The OCI runtime spec (runc's `runc spec` defaults, trimmed) of a container whose network
 * namespace is the pod's: the `network` namespace has a `path`, so runc joins it instead of
 * making a new one. The rootfs is read-only (containers share it); /tmp is each one's own.
 */
function ociConfig({ name, rootfs, command, netns, bundle }) {
  const caps = ["CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE", "CAP_NET_RAW"];
  const fs = (destination, type, options) => ({ destination, type, source: type, options });
  const bind = (file) => ({
    destination: `/etc/${file}`,
    type: "bind",
    source: join(bundle, file),
    options: ["rbind", "ro"],
  });
  return {
    ociVersion: "1.0.2",
    process: {
      terminal: false,
      user: { uid: 0, gid: 0 },
      args: command,
      env: ["PATH=/bin", `HOSTNAME=${name}`],
      cwd: "/",
      capabilities: { bounding: caps, effective: caps, permitted: caps },
      rlimits: [{ type: "RLIMIT_NOFILE", hard: 1024, soft: 1024 }],
      noNewPrivileges: true,
    },
    root: { path: rootfs, readonly: true },
    hostname: name,
    mounts: [
      fs("/proc", "proc", []),
      fs("/dev", "tmpfs", ["nosuid", "strictatime", "mode=755", "size=65536k"]),
      fs("/dev/pts", "devpts", ["nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"]),
      fs("/dev/shm", "tmpfs", ["nosuid", "noexec", "nodev", "mode=1777", "size=65536k"]),
      fs("/sys", "sysfs", ["nosuid", "noexec", "nodev", "ro"]),
      fs("/tmp", "tmpfs", ["nosuid", "nodev", "mode=1777"]),
      bind("resolv.conf"),
      bind("hostname"),
      bind("hosts"),
    ],
    linux: {
      namespaces: [
        { type: "pid" },
        { type: "ipc" },
        { type: "uts" },
        { type: "mount" },
        { type: "network", path: netns },
      ],
      resources: { devices: [{ allow: false, access: "rwm" }] },
      maskedPaths: ["/proc/acpi", "/proc/kcore", "/proc/keys", "/proc/timer_list", "/sys/firmware"],
      readonlyPaths: ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"],
    },
  };
}

/**
 * Writes a container's bundle into `bundle`: config.json, and the /etc files made from the
 * pod's setup: `dns` (each network's, as setupPod gives it) and its `addresses` (CIDRs).
 */
export async function writeBundle(bundle, { name, rootfs, command, netns, dns, addresses }) {
  await mkdir(bundle, { recursive: true, mode: 0o700 });
  await writeFile(join(bundle, "resolv.conf"), resolvConf(dns));
  await writeFile(join(bundle, "hostname"), `${name}\n`);
  await writeFile(join(bundle, "hosts"), hosts(name, addresses));
  const config = ociConfig({ name, rootfs, command, netns, bundle });
  await writeFile(join(bundle, "config.json"), JSON.stringify(config, null, 2));
}
