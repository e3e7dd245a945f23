/**
 * Where a pid and a start time name one process: its pid and time namespaces (a start time is
 * ticks since boot in the time namespace), and the boot (after which they name another one).
 */
import { createHash } from "node:crypto";
import { readFile, readlink } from "node:fs/promises";

/** The digest of this process's pid and time namespaces (8 base-36 digits); none without /proc. */
export async function namespaceDigest(): Promise<string | undefined> {
  const link = (kind: string) => readlink(`/proc/self/ns/${kind}`).catch(() => undefined);
  const [pid, time] = await Promise.all([link("pid"), link("time")]);
  if (pid === undefined) return undefined;
  // Kernels before 5.6 have no time namespaces: "" stands for the one clock there is.
  const digest = createHash("sha256")
    .update(`${pid}\n${time ?? ""}`)
    .digest();
  return BigInt(`0x${digest.subarray(0, 5).toString("hex")}`)
    .toString(36)
    .padStart(8, "0");
}

/** This boot's random ID (`/proc/sys/kernel/random/boot_id`); undefined where unreadable. */
export async function bootID(): Promise<string | undefined> {
  return readFile("/proc/sys/kernel/random/boot_id", "latin1").then(
    (id) => id.trim() || undefined,
    () => undefined,
  );
}
