/**
 * The e2e suite's prerequisites. A missing one fails the suite with a message that says what
 * to install: CI must never report green because nothing ran.
 */
import { access, constants } from "node:fs/promises";
import { join } from "node:path";

/** Where Debian's containernetworking-plugins package installs the plugins. */
export const pluginSourceDir = process.env.LIBCNI_E2E_PLUGIN_DIR ?? "/usr/lib/cni";

/** The real plugins the scenarios run. */
export const requiredPlugins = [
  "bandwidth",
  "bridge",
  "host-local",
  "loopback",
  "macvlan",
  "portmap",
  "ptp",
  "tuning",
] as const;

/** A system tool and the Debian package that provides it. */
const requiredTools: readonly [string, string][] = [
  ["ip", "iproute2"],
  ["tc", "iproute2"],
  ["iptables", "iptables"],
  ["ip6tables", "iptables"],
  ["ping", "iputils-ping"],
  ["nsenter", "util-linux"],
];

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function onPath(tool: string): Promise<boolean> {
  const dirs = (process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin").split(":");
  for (const dir of [...dirs, "/usr/sbin", "/sbin"]) {
    if (dir !== "" && (await isExecutable(join(dir, tool)))) return true;
  }
  return false;
}

/**
 * Throws an Error listing every missing prerequisite (root, plugins, tools) with the Debian
 * package to install; resolves when all are present. `pluginDir` and `uid` stand in for the
 * real ones in the harness's own tests.
 */
export async function assertPrerequisites(
  options: { pluginDir?: string; uid?: number } = {},
): Promise<void> {
  const pluginDir = options.pluginDir ?? pluginSourceDir;
  const problems: string[] = [];
  if ((options.uid ?? process.getuid?.()) !== 0) {
    problems.push(
      "the e2e suite must run as root (it creates network namespaces, veths and iptables chains)",
    );
  }
  const missingPlugins: string[] = [];
  for (const plugin of requiredPlugins) {
    if (!(await isExecutable(join(pluginDir, plugin)))) missingPlugins.push(plugin);
  }
  if (missingPlugins.length > 0) {
    problems.push(
      `CNI plugins missing from ${pluginDir}: ${missingPlugins.join(", ")} ` +
        "(install the Debian package containernetworking-plugins: apt-get install containernetworking-plugins)",
    );
  }
  const missingPackages = new Set<string>();
  const missingTools: string[] = [];
  for (const [tool, pkg] of requiredTools) {
    if (!(await onPath(tool))) {
      missingTools.push(tool);
      missingPackages.add(pkg);
    }
  }
  if (missingTools.length > 0) {
    problems.push(
      `tools missing: ${missingTools.join(", ")} (apt-get install ${[...missingPackages].join(" ")})`,
    );
  }
  if (problems.length > 0) {
    throw new Error(`e2e prerequisites not met:\n- ${problems.join("\n- ")}`);
  }
}
