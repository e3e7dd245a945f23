/**
 * How cnitool turns its arguments and environment into libcni inputs, as upstream's
 * `setupRuntimeConfig`: NETCONFPATH, CNI_PATH, CAP_ARGS, CNI_ARGS and CNI_IFNAME, and a
 * container ID derived from the network namespace path.
 */
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import path from "node:path";
import { parseJSON } from "../encoding/parse.js";
import { UnmarshalTypeError } from "../errors/go.js";
import { ArgsError } from "../errors/types.js";
import { attempt } from "../internal/error-message.js";
import { goQuote } from "../internal/go-quote.js";
import { isJSONObject, jsonKind } from "../internal/json-kind.js";

/** Upstream's default configuration directory. */
export const defaultNetDir = "/etc/cni/net.d";

/** The environment cnitool reads (a subset of process.env). */
export type CnitoolEnv = Readonly<Record<string, string | undefined>>;

/** Where cnitool writes and what it runs in. */
export interface CnitoolIO {
  /** The environment (NETCONFPATH, CNI_PATH, CAP_ARGS, CNI_ARGS, CNI_IFNAME). */
  env: CnitoolEnv;
  /** The directory a relative netns path is resolved against. */
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Aborting stops the running plugin and fails the command. */
  signal?: AbortSignal;
}

/**
 * Parses CNI_ARGS as cnitool does: `K=V` pairs split on ";", each with exactly one "=" and a
 * non-empty key and value, else `invalid CNI_ARGS pair "<pair>"`.
 */
export function parseCNIArgsPairs(text: string): [string, string][] {
  return text.split(";").map((pair) => {
    const kv = pair.split("=");
    if (kv.length !== 2 || kv[0] === "" || kv[1] === "") {
      throw new ArgsError(`invalid CNI_ARGS pair ${goQuote(pair)}`);
    }
    return [kv[0], kv[1]];
  });
}

/**
 * Parses CAP_ARGS as Go's `json.Unmarshal` into a `map[string]interface{}`: an object, or
 * `null` for none; anything else is Go's type error.
 */
export function parseCapabilityArgs(text: string): Record<string, unknown> | undefined {
  const value = parseJSON(text);
  if (value === null) return undefined;
  if (!isJSONObject(value))
    throw new UnmarshalTypeError(jsonKind(value), "map[string]interface {}");
  return value;
}

/** `cnitool-` + the hex of the first 10 bytes of the SHA-512 of the absolute netns path. */
export function containerIDForNetns(absoluteNetns: string): string {
  return `cnitool-${createHash("sha512").update(absoluteNetns).digest().subarray(0, 10).toString("hex")}`;
}

/** The interface name: the flag, else CNI_IFNAME, else eth0. */
export function resolveIfName(flag: string | undefined, env: CnitoolEnv): string {
  return flag || env.CNI_IFNAME || "eth0";
}

/**
 * The working directory as Go's `os.Getwd` reports it: `$PWD` when it is absolute and names
 * the same directory as `.` (so a netns path given relative to a symlinked directory hashes to
 * the same container ID as with the Go tool), else the physical path.
 */
export async function goWorkingDirectory(env: CnitoolEnv): Promise<string> {
  // A deleted directory has none (uv_cwd ENOENT): "" leaves a relative path's resolve to fail.
  const physical = attempt(() => process.cwd()) ?? "";
  const pwd = env.PWD;
  if (!pwd || !path.isAbsolute(pwd)) return physical;
  try {
    const [a, b] = await Promise.all([stat(pwd), stat(".")]);
    return a.dev === b.dev && a.ino === b.ino ? pwd : physical;
  } catch {
    return physical;
  }
}

/** Go's `filepath.Abs`: joined onto the working directory when relative, then cleaned. */
export function absolutePath(p: string, cwd: string): string {
  // In a deleted directory ("" above) Go's os.Getwd fails, in its words.
  if (cwd === "" && !path.isAbsolute(p)) throw new Error("getwd: no such file or directory");
  return path.resolve(cwd, p);
}

/** A `dir1:dir2` list without its empty entries, each made absolute against `cwd`. */
export function dirList(text: string, cwd: string): string[] {
  return text
    .split(":")
    .filter((d) => d !== "")
    .map((d) => absolutePath(d, cwd));
}

/** Go's `filepath.SplitList` of CNI_PATH: empty gives no paths. */
export function pluginPaths(env: CnitoolEnv): string[] {
  const value = env.CNI_PATH ?? "";
  return value === "" ? [] : value.split(":");
}
