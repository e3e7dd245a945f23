/** The versions this library knows (upstream pkg/version/version.go). */

import { VersionError } from "../errors/version.js";
import { goQuote, goQuoteList } from "../internal/go-quote.js";
import { CURRENT_VERSION } from "./current.js";
import { type PluginInfo, pluginSupports } from "./plugin-info.js";

/** The version of the CNI spec implemented by this library: "1.1.0". */
export function current(): string {
  return CURRENT_VERSION;
}

/**
 * The versions a plugin backwards compatible with spec 0.1.0 supports: [0.1.0, 0.2.0].
 * A runtime built against 0.1.0 works with a plugin reporting these.
 */
export const legacy: PluginInfo = pluginSupports("0.1.0", "0.2.0");

/** Every CNI spec version, oldest first: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0. */
export const all: PluginInfo = pluginSupports(
  "0.1.0",
  "0.2.0",
  "0.3.0",
  "0.3.1",
  "0.4.0",
  "1.0.0",
  "1.1.0",
);

/**
 * The known versions from `minVersion` on, inclusive, as upstream `VersionsStartingFrom`.
 * `minVersion` must be one of `all`'s, spelled exactly; otherwise this throws (upstream panics).
 */
export function versionsStartingFrom(minVersion: string): PluginInfo {
  const known = all.supportedVersions();
  const start = known.indexOf(minVersion);
  if (start < 0) {
    throw new VersionError(
      `unknown CNI version ${goQuote(minVersion)}: known versions are ${goQuoteList(known)}`,
    );
  }
  return pluginSupports(...known.slice(start));
}
