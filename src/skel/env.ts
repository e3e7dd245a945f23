/**
 * The CNI_* environment table (upstream `getCmdArgsFromEnv`): which variable each verb needs,
 * which are validated, and the order in which problems are reported.
 */

import { CNIError } from "../errors/types.js";
import { ErrInvalidEnvironmentVariables } from "../types/error-codes.js";
import { validateContainerID, validateInterfaceName } from "../utils/index.js";
import type { CmdArgs } from "./types.js";

/** The environment as skel reads it: `process.env` or a test's table. */
export type Environment = Readonly<Record<string, string | undefined>>;

interface EnvVar {
  readonly name: string;
  /** The verbs for which the variable is required (and, with `validate`, validated). */
  readonly requiredFor: readonly string[];
  readonly validate?: (value: string) => CNIError | undefined;
}

// Upstream's table, in upstream's order: missing variables are reported in this order.
const table: readonly EnvVar[] = [
  { name: "CNI_COMMAND", requiredFor: ["ADD", "CHECK", "DEL", "GC", "STATUS"] },
  { name: "CNI_CONTAINERID", requiredFor: ["ADD", "CHECK", "DEL"], validate: validateContainerID },
  { name: "CNI_NETNS", requiredFor: ["ADD", "CHECK"] },
  { name: "CNI_IFNAME", requiredFor: ["ADD", "CHECK", "DEL"], validate: validateInterfaceName },
  { name: "CNI_ARGS", requiredFor: [] },
  { name: "CNI_PATH", requiredFor: ["ADD", "CHECK", "DEL", "GC", "STATUS"] },
  { name: "CNI_NETNS_OVERRIDE", requiredFor: [] },
];

/** The CNI_* values, each the empty string when unset (Go's `os.Getenv`): CmdArgs' env part. */
export type EnvValues = Omit<CmdArgs, "stdinData"> & {
  /** CNI_COMMAND. */
  command: string;
};

/**
 * Reads and checks the CNI_* variables. An empty value counts as missing. The first validation
 * failure (in table order) is returned at once; otherwise every missing required variable is
 * reported together: code 4 `required env variables [A,B] missing`. CNI_COMMAND is always
 * required; an unknown command requires nothing else (the dispatcher rejects it later).
 */
export function readEnv(env: Environment): EnvValues | CNIError {
  const command = env.CNI_COMMAND ?? "";
  const values = new Map<string, string>();
  const missing: string[] = [];
  for (const v of table) {
    const value = env[v.name] ?? "";
    values.set(v.name, value);
    const required = v.requiredFor.includes(command);
    if (value === "") {
      if (required || v.name === "CNI_COMMAND") missing.push(v.name);
    } else if (required && v.validate) {
      const error = v.validate(value);
      if (error) return error;
    }
  }
  if (missing.length > 0) {
    return new CNIError(
      ErrInvalidEnvironmentVariables,
      `required env variables [${missing.join(",")}] missing`,
    );
  }
  const get = (name: string): string => values.get(name) ?? "";
  return {
    command,
    containerID: get("CNI_CONTAINERID"),
    netns: get("CNI_NETNS"),
    ifName: get("CNI_IFNAME"),
    args: get("CNI_ARGS"),
    path: get("CNI_PATH"),
    netnsOverride: get("CNI_NETNS_OVERRIDE"),
  };
}
