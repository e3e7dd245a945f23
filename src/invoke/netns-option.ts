/**
 * The `netns` option of RawExec, checked and made absolute. Apart from raw-exec.ts so that
 * `CNIConfig`'s `pluginNetns` is checked when the config is made, without loading the exec
 * layer before a verb needs it.
 */
import { resolve } from "node:path";
import { InvalidArgumentError } from "../errors/base.js";

/** The option as an absolute path (or undefined); throws InvalidArgumentError for a bad one. */
export function netnsOption(netns: unknown): string | undefined {
  if (netns === undefined) return undefined;
  if (typeof netns !== "string" || netns === "" || netns.includes("\0")) {
    throw new InvalidArgumentError(
      "netns",
      "RawExec option netns must be a non-empty path without NUL bytes",
    );
  }
  // Absolute: the spawner helper resolves a relative path against its own working directory.
  return resolve(netns);
}
