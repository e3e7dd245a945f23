/**
 * Whether the spawner helper serves the library's bulk reads (its file channel, files.ts),
 * decided once per process: on Linux, unless `LIBCNI_LAUNCHER=direct`, when the helper binary
 * is there and answers its handshake with a file channel. Everywhere else (a runtime that gives
 * the helper no fd 3, a bundle without the binary, another OS) the callers read with fs calls
 * as before; NODE_DEBUG=libcni says which, once.
 */
import { access, constants } from "node:fs/promises";
import { debuglog } from "node:util";
import { messageOf } from "../../internal/error-message.js";
import type { FileChannel } from "./files.js";
import { sharedSpawner } from "./select.js";

const debug = debuglog("libcni");

// How long the file channel's first answer may take before reads stay fs calls.
const probeTimeoutMs = 5000;

let deciding: Promise<boolean> | undefined;
let decided: boolean | undefined;

async function decide(): Promise<boolean> {
  const [serves, reason] = await choose();
  debug("file reads: %s", reason);
  decided = serves;
  return serves;
}

async function choose(): Promise<[boolean, string]> {
  if (process.platform !== "linux") return [false, `fs calls (${process.platform})`];
  if (process.env.LIBCNI_LAUNCHER === "direct") return [false, "fs calls (LIBCNI_LAUNCHER=direct)"];
  const spawner = sharedSpawner();
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
export function helperFiles(): FileChannel | undefined | Promise<FileChannel | undefined> {
  if (decided === false) return undefined;
  if (decided === true) return sharedSpawner().fileChannel();
  deciding ??= decide();
  return deciding.then((serves) => (serves ? sharedSpawner().fileChannel() : undefined));
}
