/**
 * Rewriting a plugin's configuration (upstream `InjectConf`) and upconverting a single plugin
 * to a list (`ConfListFromConf`).
 *
 * Both go through Go's map encoding: the JSON is decoded into a map, changed, and marshalled
 * again, so keys come out sorted by bytes at every level and strings HTML-escaped. A plugin's
 * stdin is built this way, and upstream's tests (and plugins comparing hashes of their config)
 * rely on those exact bytes.
 */

import { marshal } from "../encoding/json.js";
import { setOwn } from "../encoding/parse.js";
import { ConfError } from "../errors/conf.js";
import { utf8Encode } from "../internal/bytes.js";
import { messageOf } from "../internal/error-message.js";
import { unmarshalMap, wrapErrors } from "./bytes.js";
import { networkConfFromBytes } from "./list.js";
import { networkPluginConfFromBytes } from "./plugin.js";
import type { NetworkConfigList, PluginConfig } from "./types.js";

/**
 * Returns a new PluginConfig whose bytes are the original's with `newValues` set at the top
 * level, re-encoded as Go's `json.Marshal` of a map (byte-identical to upstream), and parsed
 * again. A value may be anything the encoder takes: plain objects (encoded as Go maps),
 * `goStruct` objects, a Result (which encodes itself), arrays, strings, numbers, booleans.
 *
 * @param newValues keys to set, in order; a Map or a plain object
 * @throws ConfError `unmarshal existing network bytes: ...` when the original bytes are not a
 *   JSON object; `keys cannot be empty`; `key '<k>' value must not be nil` for null or
 *   undefined; the encoder's error for a value Go cannot encode; the parse errors of
 *   networkPluginConfFromBytes (`missing 'type'`, a wrong-typed well-known field).
 */
export function injectConf(
  original: PluginConfig,
  newValues: Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>,
): PluginConfig {
  const config = wrapErrors("unmarshal existing network bytes: ", () =>
    unmarshalMap(original.bytes),
  );
  // Go ranges over a nil map as over an empty one.
  const entries = newValues instanceof Map ? [...newValues] : Object.entries(newValues ?? {});
  for (const [key, value] of entries) {
    if (key === "") throw new ConfError("keys cannot be empty");
    if (value === null || value === undefined) {
      throw new ConfError(`key '${key}' value must not be nil`);
    }
    if (config === null) {
      // Go panics here (assignment to a nil map); an error is the useful equivalent.
      throw new ConfError("cannot inject into a null network configuration");
    }
    setOwn(config, key, value);
  }
  // Go's json.Marshal; its errors (NaN, a cycle, a function) as ConfErrors.
  return networkPluginConfFromBytes(utf8Encode(wrapErrors("", () => marshal(config))));
}

/**
 * Upconverts a single plugin's configuration to a one-plugin list:
 * `{"cniVersion","name","plugins":[<the plugin's JSON>]}`, encoded as Go does and parsed as a
 * list. List-level flags a single file may carry (`disableCheck`, ...) are not carried over,
 * as upstream.
 *
 * @deprecated single-plugin configurations are a legacy format
 * @throws ConfError the JSON error of the plugin's bytes (without a prefix, as upstream), or
 *   the errors of networkConfFromBytes.
 */
export function confListFromConf(original: PluginConfig): NetworkConfigList {
  let rawConfig: Record<string, unknown> | null;
  try {
    rawConfig = unmarshalMap(original.bytes);
  } catch (error) {
    if (error instanceof ConfError) throw error;
    throw new ConfError(messageOf(error), { cause: error });
  }
  const rawConfigList = {
    name: original.network.name,
    cniVersion: original.network.cniVersion,
    plugins: [rawConfig],
  };
  return networkConfFromBytes(utf8Encode(wrapErrors("", () => marshal(rawConfigList))));
}
