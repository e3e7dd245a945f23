/**
 * Where mini keeps things, under its root (default /run/mini):
 *
 *   containers/<name>.json   the container's record: what it was run with, and its owner
 *   bundles/<name>/          the OCI bundle runc runs (config.json, resolv.conf, hosts, ...)
 *   netns/<name>             the pod's network namespace, pinned (libcni/netns)
 *   cache/                   libcni's result cache and setup intents (as /var/lib/cni)
 *   runc/                    runc's own state (`runc --root`)
 *
 * A record is written whole or not at all, and it comes first and goes last: whatever a run
 * made, a record names it until `rm` or `gc` has removed it.
 */
import { link, mkdir, readdir, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * A process as an owner: its pid and its start time (field 22 of /proc/<pid>/stat), which
 * tells it apart from a later process given the same pid.
 * @param {number} pid
 * @returns {Promise<{ pid: number, start: string } | undefined>} undefined when it is gone
 */
export async function processOwner(pid) {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "latin1");
    // The command name may hold spaces and parentheses; the fields after the last ")" do not.
    return { pid, start: stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] };
  } catch {
    return undefined;
  }
}

/** True while the process that wrote `owner` runs. */
export async function ownerAlive(owner) {
  if (owner === undefined) return false;
  return (await processOwner(owner.pid))?.start === owner.start;
}

/**
 * @typedef {object} ContainerRecord
 * @property {string} name       the container's name: its runc ID and its CNI container ID
 * @property {string} created    ISO time
 * @property {string} rootfs
 * @property {string[]} command
 * @property {string[]} networks the networks asked for (loopback not included)
 * @property {string[]} publish  `HOSTPORT:CTRPORT/PROTO`
 * @property {boolean} detach
 * @property {{ pid: number, start: string } | undefined} owner the mini process running it
 */

export class Store {
  /** @param {string} root */
  constructor(root) {
    this.root = root;
    this.containers = join(root, "containers");
    this.bundles = join(root, "bundles");
    this.netnsDir = join(root, "netns");
    this.cacheDir = join(root, "cache");
    this.runcRoot = join(root, "runc");
  }

  record(name) {
    return join(this.containers, `${name}.json`);
  }

  bundle(name) {
    return join(this.bundles, name);
  }

  netns(name) {
    return join(this.netnsDir, name);
  }

  /**
   * Creates the record of a new container; throws EEXIST when the name is taken. The record
   * is written to a temp file and linked into place: readers see all of it or nothing.
   * @param {ContainerRecord} record
   */
  async create(record) {
    await mkdir(this.containers, { recursive: true, mode: 0o700 });
    const temp = join(this.containers, `.${record.name}.${process.pid}.tmp`);
    await writeFile(temp, JSON.stringify(record, null, 2));
    try {
      await link(temp, this.record(record.name));
    } finally {
      await unlink(temp);
    }
  }

  /** @returns {Promise<ContainerRecord | undefined>} */
  async read(name) {
    try {
      return JSON.parse(await readFile(this.record(name), "utf8"));
    } catch (error) {
      if (error.code === "ENOENT") return undefined;
      throw error;
    }
  }

  /** The names of every container with a record. */
  async names() {
    const files = await readdir(this.containers).catch(() => []);
    return files
      .filter((f) => f.endsWith(".json") && !f.startsWith("."))
      .map((f) => f.slice(0, -5));
  }

  /** Temp records whose writer died between write and link. */
  async removeStaleTemps() {
    for (const file of await readdir(this.containers).catch(() => [])) {
      const pid = Number(/^\..+\.(\d+)\.tmp$/.exec(file)?.[1]);
      if (pid && !(await processOwner(pid))) await rm(join(this.containers, file), { force: true });
    }
  }

  async remove(name) {
    await rm(this.record(name), { force: true });
  }
}
