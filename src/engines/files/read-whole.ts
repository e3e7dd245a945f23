/**
 * Whole-file reads through the spawner helper's file channel (spawner/files.ts), and whether
 * it serves them, decided once per process: on Linux, unless `LIBCNI_LAUNCHER=direct`, when
 * the helper runs and answers on its file channel. Elsewhere (no fd 3 for the helper, a bundle
 * without the binary, another OS) the callers read with fs calls; NODE_DEBUG=libcni says which.
 */
import { access, constants } from "node:fs/promises";
import { debug } from "../../internal/diagnostics.js";
import { messageOf } from "../../internal/error-message.js";
import type { FileChannel } from "../spawner/files.js";
import { maxFileBytes } from "../spawner/protocol.js";
import type * as Select from "../start/select.js";

// How long the file channel's first answer may take before reads stay fs calls.
const probeTimeoutMs = 5000;

let deciding: Promise<boolean> | undefined;
let decided: boolean | undefined;
/**
 * The spawner's module (select.js and the process machinery under it), loaded when reads are
 * first decided, so that loading conf's file reading (and with it the main entry) does not load
 * the exec layer. Set before `decided` is true.
 */
let select: typeof Select | undefined;

async function decide(): Promise<boolean> {
  const [serves, reason] = await choose();
  debug("file reads: %s", reason);
  decided = serves;
  return serves;
}

async function choose(): Promise<[boolean, string]> {
  if (process.platform !== "linux") return [false, `fs calls (${process.platform})`];
  if (process.env.LIBCNI_LAUNCHER === "direct") return [false, "fs calls (LIBCNI_LAUNCHER=direct)"];
  select ??= await import("../start/select.js");
  const spawner = select.sharedSpawner();
  try {
    await access(spawner.binaryPath, constants.X_OK);
    await spawner.probe();
  } catch (error) {
    return [false, `fs calls (no spawner helper: ${messageOf(error)})`];
  }
  const channel = spawner.fileChannel();
  if (channel === undefined) {
    return [false, "fs calls (the runtime gives the spawner helper no file channel)"];
  }
  // A channel the runtime made but does not carry (its fd 3 not a socket pair) must not hold
  // a read for ever: an empty READ answers at once where it works.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answered = await Promise.race([
    channel.read("/", [], false, 0).then(
      () => true,
      () => false,
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), probeTimeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (!answered) return [false, "fs calls (the spawner helper's file channel does not answer)"];
  return [true, `spawner ${spawner.binaryPath}`];
}

/** The helper's file channel, or undefined when reads are fs calls. Synchronous once decided. */
function helperFiles(): FileChannel | undefined | Promise<FileChannel | undefined> {
  if (decided === false) return undefined;
  if (decided === true) return select!.sharedSpawner().fileChannel();
  deciding ??= decide();
  return deciding.then((serves) => (serves ? select!.sharedSpawner().fileChannel() : undefined));
}

/** Options of {@link readWhole}. */
export interface ReadWholeOptions {
  /** The file itself may not be a symlink (O_NOFOLLOW). */
  nofollow: boolean;
  /** The most bytes the file may hold. */
  maxBytes: number;
}

interface Batch {
  dir: string;
  names: string[];
  waiters: ((bytes: Uint8Array | undefined) => void)[];
}

const batches = new Map<string, Batch>();
let batchDue = false;

/**
 * The bytes of the regular file `path`, read by the helper with every other file of its
 * directory asked for in the same turn (one request); undefined when the helper did not read it
 * (no helper here, not a regular file, too large, any error): the caller reads it itself.
 */
export function readWhole(
  path: string,
  options: ReadWholeOptions,
): Promise<Uint8Array | undefined> | undefined {
  if (helperFiles() === undefined) return undefined;
  const slash = path.lastIndexOf("/");
  if (slash < 0 || slash === path.length - 1) return undefined;
  const dir = path.slice(0, slash) || "/";
  const name = path.slice(slash + 1);
  const maxBytes = Math.min(options.maxBytes, maxFileBytes);
  const key = `${options.nofollow ? 1 : 0}:${maxBytes}:${dir}`;
  return new Promise((resolve) => {
    const batch = batches.get(key) ?? { dir, names: [], waiters: [] };
    batches.set(key, batch);
    batch.names.push(name);
    batch.waiters.push(resolve);
    if (batchDue) return;
    batchDue = true;
    setImmediate(() => {
      batchDue = false;
      const due = [...batches];
      batches.clear();
      const files = helperFiles();
      for (const [k, b] of due) void send(files, k, b);
    });
  });
}

// Absolute for the helper (its working directory is its own), but not resolved: `link/..` is
// the kernel's to follow, as Go's os.ReadFile leaves it, not path.resolve's to drop.
const absolute = (dir: string): string => (dir[0] === "/" ? dir : `${process.cwd()}/${dir}`);

async function send(
  files: FileChannel | undefined | Promise<FileChannel | undefined>,
  key: string,
  batch: Batch,
): Promise<void> {
  const [flag, most] = key.split(":", 2);
  let got: (Uint8Array | undefined)[] = [];
  try {
    const channel = await files;
    if (channel !== undefined) {
      got = await channel.read(absolute(batch.dir), batch.names, flag === "1", Number(most));
    }
  } catch {
    // The helper went: every file is read by its caller.
  }
  for (const [i, resolve] of batch.waiters.entries()) resolve(got[i]);
}
