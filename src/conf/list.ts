/**
 * A network configuration list from its bytes (upstream `NetworkConfFromBytes`), with every
 * rule and message of upstream's.
 */

import { marshal } from "../encoding/json.js";
import { ConfError } from "../errors/conf.js";
import { utf8Encode } from "../internal/bytes.js";
import { goToLower } from "../internal/go-lower.js";
import { goQuote } from "../internal/go-quote.js";
import { type ConfInput, inputBytes, unmarshalMap, wrapErrors } from "./bytes.js";
import { selectCNIVersion } from "./cni-versions.js";
import { goTypeName } from "./go-format.js";
import { networkPluginConfFromBytes } from "./plugin.js";
import type { NetworkConfigList, PluginConfig } from "./types.js";

const prefix = "error parsing configuration list: ";

/**
 * A list-level flag: a JSON bool, or the string "true"/"false" in any case (files written by
 * hand or templated often quote them). Anything else, null included, is an error.
 */
function readBool(raw: Record<string, unknown>, key: string): boolean {
  if (!Object.hasOwn(raw, key)) return false;
  const value = raw[key];
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") {
    throw new ConfError(`${prefix}invalid type ${goTypeName(value)} for ${key}`);
  }
  const lower = goToLower(value);
  if (lower === "false") return false;
  if (lower === "true") return true;
  throw new ConfError(`${prefix}invalid value ${goQuote(lower)} for ${key}`);
}

function readString(raw: Record<string, unknown>, key: string): string {
  const value = raw[key];
  if (typeof value !== "string") {
    throw new ConfError(`${prefix}invalid ${key} type ${goTypeName(value)}`);
  }
  return value;
}

/** Go's re-marshal of one `plugins` entry, then its parse as a single plugin. */
function parsePlugin(entry: unknown, index: number): PluginConfig {
  const text = wrapErrors(`failed to marshal plugin config ${index}: `, () => marshal(entry));
  return wrapErrors(`failed to parse plugin config ${index}: `, () =>
    networkPluginConfFromBytes(utf8Encode(text)),
  );
}

/**
 * Parses a network configuration list.
 *
 * - `name` is required and must be a string (empty is accepted here, as upstream).
 * - `cniVersion`, if present, must be a string; `cniVersions` picks the highest version this
 *   library implements (see `selectCNIVersion`).
 * - `disableCheck`, `disableGC`, `loadOnlyInlinedPlugins`: bool or "true"/"false" in any case.
 * - `plugins`: when present, a non-empty array; each entry is re-marshalled as Go does (keys
 *   sorted, compact) and parsed as a plugin, so its `bytes` keep every unknown field. When
 *   absent the list has no plugins (a file's drop-in directory may supply them), unless
 *   `loadOnlyInlinedPlugins` is set, which is an error.
 * - `bytes` is the input unchanged.
 *
 * @throws ConfError with upstream's message (`error parsing configuration list: no name`, ...).
 */
export function networkConfFromBytes(confBytes: ConfInput): NetworkConfigList {
  const bytes = inputBytes(confBytes);
  // A JSON null is a nil map in Go: every key is then simply missing.
  const raw = wrapErrors(prefix, () => unmarshalMap(bytes)) ?? {};

  if (!Object.hasOwn(raw, "name")) throw new ConfError(`${prefix}no name`);
  const name = readString(raw, "name");
  let cniVersion = Object.hasOwn(raw, "cniVersion") ? readString(raw, "cniVersion") : "";
  if (Object.hasOwn(raw, "cniVersions")) cniVersion = selectCNIVersion(raw.cniVersions, cniVersion);

  const list: NetworkConfigList = {
    name,
    cniVersion,
    disableCheck: readBool(raw, "disableCheck"),
    disableGC: readBool(raw, "disableGC"),
    loadOnlyInlinedPlugins: readBool(raw, "loadOnlyInlinedPlugins"),
    plugins: [],
    bytes,
  };

  if (!Object.hasOwn(raw, "plugins")) {
    if (list.loadOnlyInlinedPlugins) {
      throw new ConfError(`${prefix}\`loadOnlyInlinedPlugins\` is true, and no 'plugins' key`);
    }
    return list;
  }
  const plugins = raw.plugins;
  if (!Array.isArray(plugins)) {
    throw new ConfError(`${prefix}invalid 'plugins' type ${goTypeName(plugins)}`);
  }
  if (plugins.length === 0) throw new ConfError(`${prefix}no plugins in list`);
  list.plugins = plugins.map(parsePlugin);
  return list;
}

/** Upstream's older name of {@link networkConfFromBytes} (`ConfListFromBytes`), kept as is. */
export function confListFromBytes(bytes: ConfInput): NetworkConfigList {
  return networkConfFromBytes(bytes);
}
