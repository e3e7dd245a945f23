/**
 * The only look skel takes at the config before dispatching (upstream `validateConfig`): it
 * must be JSON with a valid network `name`.
 */

import { parseJSON } from "../encoding/parse.js";
import { defineStruct } from "../encoding/struct.js";
import { CNIError } from "../errors/types.js";
import { messageOf } from "../internal/error-message.js";
import { ErrDecodingFailure, ErrInvalidNetworkConfig } from "../types/error-codes.js";
import { validateNetworkName } from "../utils/index.js";

// Upstream decodes into an anonymous `struct { Name string "json:\"name\"" }`.
const nameOnly = defineStruct<{ name?: string }>("", {
  goType: 'struct { Name string "json:\\"name\\"" }',
  fields: { name: { type: "string" } },
});

/**
 * Checks the config bytes: not JSON (or a non-string name) -> code 6
 * `error unmarshall network config: <Go's error>`; empty name -> code 7 `missing network name`;
 * then the network name rules of `validateNetworkName`.
 */
export function validateConfig(stdinData: Uint8Array): CNIError | undefined {
  let name: string;
  try {
    name = nameOnly.decode(parseJSON(stdinData)).name ?? "";
  } catch (error) {
    const text = `error unmarshall network config: ${messageOf(error)}`;
    return new CNIError(ErrDecodingFailure, text, "", { cause: error });
  }
  if (name === "") return new CNIError(ErrInvalidNetworkConfig, "missing network name");
  return validateNetworkName(name);
}
