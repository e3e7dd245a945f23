/**
 * Checking a configuration's version against a plugin's supported versions (upstream
 * pkg/version/reconcile.go `Reconciler`, `ErrorIncompatible`).
 */
import { goQuote, goQuoteList } from "../encoding/go-quote.js";
import type { PluginInfo } from "./plugin-info.js";

const brand = Symbol.for("libcni.ErrorIncompatible");

/**
 * The configuration's version is not among the plugin's supported versions. Its message is
 * upstream's: `incompatible CNI versions: config is "0.1.0", plugin supports ["1.2.3" "4.3.2"]`.
 */
export class ErrorIncompatible extends Error {
  /** The configuration's CNI version. */
  readonly config: string;
  /** The versions the plugin supports. */
  readonly supported: readonly string[];

  constructor(config: string, supported: readonly string[]) {
    super(`incompatible CNI versions: ${details(config, supported)}`);
    this.name = "ErrorIncompatible";
    this.config = config;
    this.supported = Object.freeze([...supported]);
    Object.defineProperty(this, brand, { value: true });
  }

  /** Upstream's `Details()`: `config is "<v>", plugin supports [...]`. */
  details(): string {
    return details(this.config, this.supported);
  }

  /** Holds across two copies of this library in one process, as `CNIError` does. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses keep the ordinary prototype check; only ErrorIncompatible answers by brand.
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof was asked about
    if (this !== ErrorIncompatible) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && brand in value;
  }
}

function details(config: string, supported: readonly string[]): string {
  return `config is ${goQuote(config)}, plugin supports ${goQuoteList(supported)}`;
}

/**
 * Returns an `ErrorIncompatible` unless `configVersion` is exactly (string equality, as
 * upstream) one of `supported`, which is a PluginInfo or a list of versions; `undefined` when
 * compatible. Upstream `Reconciler.Check` / `CheckRaw`.
 */
export function reconcile(
  configVersion: string,
  supported: PluginInfo | readonly string[],
): ErrorIncompatible | undefined {
  const versions = isVersionList(supported) ? supported : supported.supportedVersions();
  return versions.includes(configVersion)
    ? undefined
    : new ErrorIncompatible(configVersion, versions);
}

function isVersionList(value: PluginInfo | readonly string[]): value is readonly string[] {
  return Array.isArray(value);
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
