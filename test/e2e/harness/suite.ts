/**
 * What every e2e file does first: check the prerequisites (failing loudly) and sweep the
 * leftovers of killed runs. Also the few checks shared by the scenarios.
 */
import { sweepLeftovers } from "./netns.js";
import { assertPrerequisites } from "./prereq.js";
import { run } from "./sh.js";
import { E2EWorld } from "./world.js";

/** Prerequisites, then the sweep; call from `beforeAll`. */
export async function prepareSuite(): Promise<void> {
  await assertPrerequisites();
  const removed = await sweepLeftovers();
  if (removed.length > 0) {
    process.stderr.write(
      `libcni e2e: removed leftovers of earlier runs:\n  ${removed.join("\n  ")}\n`,
    );
  }
}

/**
 * A fingerprint of the machine's own network (links and addresses of the namespace the test
 * process runs in), to assert the suite never touched it.
 */
export async function rootNetworkFingerprint(): Promise<string> {
  const [linkOut, addrOut, routeOut] = await Promise.all([
    run("ip", ["-o", "link", "show"]),
    run("ip", ["-o", "addr", "show"]),
    run("ip", ["route", "show", "table", "all"]),
  ]);
  // Counters and timers change on their own; keep names, kinds, flags and addresses.
  const linksOnly = linkOut.stdout
    .split("\n")
    .map((l) => l.replace(/\s+qdisc.*$/, ""))
    .join("\n");
  const addrs = addrOut.stdout
    .split("\n")
    .map((l) => l.replace(/valid_lft.*$/, ""))
    .join("\n");
  return `${linksOnly}\n${addrs}\n${routeOut.stdout}`;
}

/** Creates worlds for a test file and disposes all of them (call `disposeAll` in afterEach). */
export class WorldTracker {
  private readonly worlds: E2EWorld[] = [];

  /** A new world, disposed by {@link WorldTracker.disposeAll}. */
  async create(label: string): Promise<E2EWorld> {
    const world = await E2EWorld.create(label);
    this.worlds.push(world);
    return world;
  }

  /** Disposes every world created so far. */
  async disposeAll(): Promise<void> {
    const worlds = this.worlds.splice(0);
    for (const world of worlds) await world.dispose();
  }
}
