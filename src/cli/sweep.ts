/**
 * `cnitool sweep`: `sweepTestLeftovers` of libcni/testing, each path removed printed on stdout,
 * each it could not remove as `cannot remove <path>: <reason>` on stderr (then exit 1). An
 * addition of this port.
 */
import { messageOf } from "../internal/error-message.js";
import { sweepTestLeftovers } from "../testing/sweep.js";
import type { ParsedFlags } from "./flags.js";
import { type CnitoolEnv, type CnitoolIO, dirList } from "./runtime-config.js";

/** os.tmpdir() of the environment cnitool was given. */
function tmpDirOf(env: CnitoolEnv): string {
  const dir = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}

/** Runs sweep; resolves to the exit status. */
export async function sweepCommand(parsed: ParsedFlags, io: CnitoolIO): Promise<number> {
  const dirs = (flag: string, fallback: string) =>
    dirList(parsed.values.get(flag) ?? fallback, io.cwd);
  const { removed, failed } = await sweepTestLeftovers({
    netnsDirs: dirs("netns-dir", "/run/netns"),
    tmpDirs: dirs("tmp-dir", tmpDirOf(io.env)),
  });
  for (const path of removed) io.stdout.write(`${path}\n`);
  for (const { path, error } of failed) {
    io.stderr.write(`cannot remove ${path}: ${messageOf(error)}\n`);
  }
  return failed.length > 0 ? 1 : 0;
}
