/**
 * Named network namespaces for the e2e suite, and the sweep of what an earlier, killed run
 * left behind. Every name the suite creates (namespaces under /run/netns, temp dirs) starts
 * with `lcnie2e-<pid>-`: the pid says whose it is, so a sweep removes only the leftovers of
 * processes that are gone and never touches a run in progress. The sweep takes libcni/testing's
 * leftovers (`lcnitest-<pid>-`) too. Namespaces are made and removed with libcni/netns, as a
 * user's test would.
 */
import { readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNetns as pinNetns, removeNetns } from "../../../src/netns/index.js";
import { runInNetns, testNamePrefix } from "../../../src/testing/index.js";

/** The prefix of every namespace and temp dir the suite creates. */
export const e2ePrefix = "lcnie2e";

/** The prefixes the sweep removes leftovers of: the suite's and libcni/testing's. */
const sweptPrefixes = [e2ePrefix, testNamePrefix];

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
  const path = await pinNetns(name, { dir: netnsDir });
  if (options.loopbackUp === true) await runInNetns(path, ["ip", "link", "set", "lo", "up"]);
}

/**
 * Deletes a named namespace; its interfaces (veth ends, bridges, ifbs) and its iptables
 * rules go with it. A namespace already gone is fine (removeNetns is idempotent).
 */
export async function deleteNetns(name: string): Promise<void> {
  await removeNetns(name, { dir: netnsDir });
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
  for (const prefix of sweptPrefixes) {
    const match = new RegExp(`^${prefix}-(\\d+)-`).exec(name);
    if (match !== null) return Number(match[1]);
  }
  return undefined;
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
      // One that cannot be removed is left for the next sweep, as `ip netns del` failing was.
      const gone = await removeNetns(name, { dir: netnsDir }).then(
        () => true,
        () => false,
      );
      if (gone) removed.push(join(netnsDir, name));
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
