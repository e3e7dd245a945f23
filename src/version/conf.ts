/** The CNI version of a network configuration (upstream pkg/version/conf.go `ConfigDecoder`). */
import { decodeVersion } from "../types/decode-version.js";

/** Upstream's `ConfigDecoder`: reads `cniVersion` from configuration bytes. */
export class ConfigDecoder {
  /**
   * The configuration's `cniVersion`, `"0.1.0"` when it is missing or empty. Throws
   * `decoding version from network config: <Go's JSON error>` for bytes that are not a JSON
   * object with a string `cniVersion`.
   */
  decode(jsonBytes: string | Uint8Array): string {
    return decodeVersion(jsonBytes);
  }
}

/** A shared `ConfigDecoder`: `configDecoder.decode(bytes)` gives the config's `cniVersion`. */
export const configDecoder: ConfigDecoder = new ConfigDecoder();
