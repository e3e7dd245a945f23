/** A single plugin's configuration from its bytes (upstream `NetworkPluginConfFromBytes`). */
import { parseJSON } from "../encoding/parse.js";
import { ConfError } from "../errors/conf.js";
import { decodePluginConf } from "../types/plugin-conf.js";
import { type ConfInput, inputBytes, wrapErrors } from "./bytes.js";
import type { PluginConfig } from "./types.js";

/**
 * Parses one plugin's configuration. `type` is required; the well-known fields are decoded
 * with Go's struct rules (a wrong type anywhere fails the whole parse); `bytes` is the input
 * unchanged, so unknown fields reach the plugin.
 *
 * Nothing here checks that the plugin belongs to a given network: that is the caller's
 * business, as upstream notes.
 *
 * @throws ConfError `error parsing configuration: <JSON or type error>` or
 *   `error parsing configuration: missing 'type'`.
 */
export function networkPluginConfFromBytes(pluginConfBytes: ConfInput): PluginConfig {
  const bytes = inputBytes(pluginConfBytes);
  const network = wrapErrors("error parsing configuration: ", () =>
    decodePluginConf(parseJSON(bytes)),
  );
  if (network.type === "") throw new ConfError("error parsing configuration: missing 'type'");
  return { network, bytes };
}

/**
 * Deprecated upstream name of {@link networkPluginConfFromBytes} (`ConfFromBytes`).
 * @deprecated use networkPluginConfFromBytes
 */
export function confFromBytes(bytes: ConfInput): PluginConfig {
  return networkPluginConfFromBytes(bytes);
}
