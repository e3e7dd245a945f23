/**
 * Checking a configuration's version against a plugin's supported versions (upstream
 * pkg/version/reconcile.go `Reconciler`, `ErrorIncompatible`).
 */

import { ErrorIncompatible } from "../errors/version.js";
import type { PluginInfo } from "./plugin-info.js";

/**
 * Upstream `Reconciler.Check` / `CheckRaw`: an `ErrorIncompatible` unless `configVersion` is
 * exactly (string equality) one of `supported`'s versions.
 */
export function reconcile(
  configVersion: string,
  supported: PluginInfo | readonly string[],
): ErrorIncompatible | undefined {
  const versions = Array.isArray(supported)
    ? (supported as readonly string[])
    : (supported as PluginInfo).supportedVersions();
  return versions.includes(configVersion)
    ? undefined
    : new ErrorIncompatible(configVersion, versions);
}

/** Upstream's `Reconciler`, for code ported method by method. */
export class Reconciler {
  /** `reconcile` against a PluginInfo. */
  check(configVersion: string, pluginInfo: PluginInfo): ErrorIncompatible | undefined {
    return reconcile(configVersion, pluginInfo);
  }
  /** `reconcile` against a list of versions. */
  checkRaw(
    configVersion: string,
    supportedVersions: readonly string[],
  ): ErrorIncompatible | undefined {
    return reconcile(configVersion, supportedVersions);
  }
}
