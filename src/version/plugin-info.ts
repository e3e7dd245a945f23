/**
 * Plugin version information: what a plugin prints for VERSION and what the runtime decodes
 * from it (upstream pkg/version/plugin.go).
 */

import { goStruct, marshal } from "../encoding/json.js";
import { parseJSON } from "../encoding/parse.js";
import { defineStruct } from "../encoding/struct.js";
import { VersionError } from "../errors/version.js";
import { messageOf } from "../internal/error-message.js";
import { CURRENT_VERSION } from "./current.js";

/** The CNI versions a plugin supports, as reported by its VERSION command. */
export interface PluginInfo {
  /**
   * The CNI spec versions the plugin supports. If input comes in one of these versions, the
   * plugin promises to answer in the same version. Returns a copy.
   */
  supportedVersions(): string[];
  /** The VERSION command's output, exactly as upstream's `Encode` writes it (newline included). */
  encode(): string;
}

/**
 * Upstream's `pluginInfo` struct: `cniVersion`, then `supportedVersions` (`omitempty`, but never
 * empty here: `pluginSupports` and `decodePluginInfo` refuse that).
 */
class VersionInfo implements PluginInfo {
  readonly #cniVersion: string;
  readonly #supported: readonly string[];

  constructor(cniVersion: string, supported: readonly string[]) {
    this.#cniVersion = cniVersion;
    this.#supported = Object.freeze([...supported]);
  }

  supportedVersions(): string[] {
    return [...this.#supported];
  }

  encode(): string {
    return `${marshal(goStruct(this.toJSON()))}\n`;
  }

  /** Shows the supported versions when logged, rather than an empty object. */
  toJSON(): { cniVersion: string; supportedVersions: readonly string[] } {
    return { cniVersion: this.#cniVersion, supportedVersions: this.#supported };
  }
}

/**
 * A PluginInfo reporting the given versions as supported, with `current()` as its
 * `cniVersion`. Throws when no version is given (upstream panics with the same text).
 */
export function pluginSupports(...supportedVersions: string[]): PluginInfo {
  if (supportedVersions.length < 1) {
    throw new VersionError("programmer error: you must support at least one version");
  }
  return new VersionInfo(CURRENT_VERSION, supportedVersions);
}

const pluginInfoStruct = defineStruct<{ cniVersion?: string; supportedVersions?: string[] }>(
  "version.pluginInfo",
  {
    fields: {
      cniVersion: { type: "string" },
      supportedVersions: { type: "array", items: { type: "string" } },
    },
  },
);

/**
 * Decodes a plugin's VERSION output, as upstream `PluginDecoder.Decode`: `cniVersion` is
 * required; no `supportedVersions` is accepted only from a 0.2.0 plugin, meaning [0.1.0, 0.2.0].
 * Throws upstream's texts, a JSON error kept as `cause`.
 */
export function decodePluginInfo(jsonBytes: string | Uint8Array): PluginInfo {
  let info: { cniVersion?: string; supportedVersions?: string[] };
  try {
    info = pluginInfoStruct.decode(parseJSON(jsonBytes));
  } catch (err) {
    throw new VersionError(`decoding version info: ${messageOf(err)}`, { cause: err });
  }
  const cniVersion = info.cniVersion ?? "";
  if (cniVersion === "") throw new VersionError("decoding version info: missing field cniVersion");
  const supported = info.supportedVersions ?? [];
  if (supported.length === 0) {
    if (cniVersion === "0.2.0") return pluginSupports("0.1.0", "0.2.0");
    throw new VersionError("decoding version info: missing field supportedVersions");
  }
  return new VersionInfo(cniVersion, supported);
}

/** Upstream's `PluginDecoder`, for code that passes a decoder around (`invoke`'s Exec does). */
export class PluginDecoder {
  /** Decodes VERSION output; see `decodePluginInfo`. */
  decode(jsonBytes: string | Uint8Array): PluginInfo {
    return decodePluginInfo(jsonBytes);
  }
}
