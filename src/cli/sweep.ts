/**
 * `cnitool sweep`: removes what killed test runs and conformance checks left behind, the
 * namespaces and temp dirs libcni/testing named for a process that is gone (`lcnitest-…`,
 * `lcnicheck-…`; `sweepTestLeftovers`), and prints each path it removed, one a line. What it
 * could not remove goes to stderr, one `cannot remove <path>: <reason>` line each, and makes
 * the exit status 1. An addition of this port: upstream's cnitool has nothing like it.
 */
import { messageOf } from "../internal/error-message.js";
import { sweepTestLeftovers } from "../testing/sweep.js";
import { absolutePath, type CnitoolEnv } from "./runtime-config.js";

/** What sweep reads and writes to. */
export interface SweepIO {
  env: CnitoolEnv;
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** The flags of the command, by long name, as parsed (`dir1:dir2` lists). */
export interface SweepFlags {
  netnsDir?: string;
  tmpDir?: string;
}

/** os.tmpdir() of the environment cnitool was given. */
function tmpDirOf(env: CnitoolEnv): string {
  const dir = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}

function dirs(value: string | undefined, fallback: string, cwd: string): string[] {
  const list = (value ?? fallback).split(":").filter((d) => d !== "");
  return list.map((d) => absolutePath(d, cwd));
}

/** Runs sweep; resolves to the exit status. */
export async function sweepCommand(flags: SweepFlags, io: SweepIO): Promise<number> {
  const { removed, failed } = await sweepTestLeftovers({
    netnsDirs: dirs(flags.netnsDir, "/run/netns", io.cwd),
    tmpDirs: dirs(flags.tmpDir, tmpDirOf(io.env), io.cwd),
  });
  for (const path of removed) io.stdout.write(`${path}\n`);
  for (const { path, error } of failed) {
    io.stderr.write(`cannot remove ${path}: ${messageOf(error)}\n`);
  }
  return failed.length > 0 ? 1 : 0;
}
