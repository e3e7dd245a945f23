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

/** The CNI_* values, each the empty string when unset (Go's `os.Getenv`): CmdArgs' env part. */
type EnvValues = Omit<CmdArgs, "stdinData"> & { command: string };

interface EnvVar {
  readonly name: string;
  readonly key: keyof EnvValues;
  /** The verbs for which the variable is required (and, with `validate`, validated). */
  readonly requiredFor: readonly string[];
  readonly validate?: (value: string) => CNIError | undefined;
}

const all = ["ADD", "CHECK", "DEL", "GC", "STATUS"];
const attachment = ["ADD", "CHECK", "DEL"];

// Upstream's table, in upstream's order: missing variables are reported in this order.
const table: readonly EnvVar[] = [
  { name: "CNI_COMMAND", key: "command", requiredFor: all },
  {
    name: "CNI_CONTAINERID",
    key: "containerID",
    requiredFor: attachment,
    validate: validateContainerID,
  },
  { name: "CNI_NETNS", key: "netns", requiredFor: ["ADD", "CHECK"] },
  { name: "CNI_IFNAME", key: "ifName", requiredFor: attachment, validate: validateInterfaceName },
  { name: "CNI_ARGS", key: "args", requiredFor: [] },
  { name: "CNI_PATH", key: "path", requiredFor: all },
  { name: "CNI_NETNS_OVERRIDE", key: "netnsOverride", requiredFor: [] },
];

/**
 * Reads and checks the CNI_* variables. An empty value counts as missing. The first validation
 * failure (in table order) is returned at once; otherwise every missing required variable is
 * reported together: code 4 `required env variables [A,B] missing`. CNI_COMMAND is always
 * required; an unknown command requires nothing else (the dispatcher rejects it later).
 */
export function readEnv(env: Environment): EnvValues | CNIError {
  const command = env.CNI_COMMAND ?? "";
  const values = {} as EnvValues;
  const missing: string[] = [];
  for (const v of table) {
    const value = env[v.name] ?? "";
    values[v.key] = value;
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
  return values;
}
