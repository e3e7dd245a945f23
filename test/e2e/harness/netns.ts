/**
 * Named network namespaces for the e2e suite, and the sweep of what an earlier, killed run
 * left behind. Every name the suite creates (namespaces under /run/netns, temp dirs) starts
 * with `lcnie2e-<pid>-`: the pid says whose it is, so a sweep removes only the leftovers of
 * processes that are gone and never touches a run in progress.
 */
import { readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "./sh.js";

/** The prefix of every namespace and temp dir the suite creates. */
export const e2ePrefix = "lcnie2e";

/** Where `ip netns add` puts its bind mounts. */
export const netnsDir = "/run/netns";

let counter = 0;

/** A name unique to this process: `lcnie2e-<pid>-<n>-<label>`. */
export function uniqueName(label: string): string {
  counter += 1;
  return `${e2ePrefix}-${process.pid}-${counter}-${label}`;
}

/** The path a plugin gets as CNI_NETNS for a named namespace. */
export function netnsPath(name: string): string {
  return join(netnsDir, name);
}

/** Creates a named namespace; with `loopbackUp` its `lo` is brought up. */
export async function createNetns(name: string, options: { loopbackUp?: boolean } = {}) {
  await run("ip", ["netns", "add", name]);
  if (options.loopbackUp === true) {
    await run("ip", ["netns", "exec", name, "ip", "link", "set", "lo", "up"]);
  }
}

/**
 * Deletes a named namespace; its interfaces (veth ends, bridges, ifbs) and its iptables
 * rules go with it. A namespace already gone is fine.
 */
export async function deleteNetns(name: string): Promise<void> {
  if (!(await listNetns()).includes(name)) return;
  await run("ip", ["netns", "del", name]);
}

/** The names under /run/netns (empty when the directory does not exist). */
export async function listNetns(): Promise<string[]> {
  try {
    return await readdir(netnsDir);
  } catch {
    return [];
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is someone else's; only ESRCH means gone.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function ownerPid(name: string): number | undefined {
  const match = new RegExp(`^${e2ePrefix}-(\\d+)-`).exec(name);
  return match === null ? undefined : Number(match[1]);
}

/** True when `name` is one of ours and its creating process is gone. */
function isLeftover(name: string): boolean {
  const pid = ownerPid(name);
  return pid !== undefined && pid !== process.pid && !isAlive(pid);
}

/**
 * Removes the namespaces and temp dirs of earlier runs that died before their cleanup.
 * Returns what it removed (for the log).
 */
export async function sweepLeftovers(): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await listNetns()) {
    if (isLeftover(name)) {
      await run("ip", ["netns", "del", name], { check: false });
      removed.push(join(netnsDir, name));
    }
  }
  for (const name of await readdir(tmpdir())) {
    if (isLeftover(name)) {
      await rm(join(tmpdir(), name), { recursive: true, force: true });
      removed.push(join(tmpdir(), name));
    }
  }
  return removed;
}
