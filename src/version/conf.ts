/** The CNI version of a network configuration (upstream pkg/version/conf.go `ConfigDecoder`). */
import { decodeVersion } from "../types/decode-version.js";

/** Upstream's `ConfigDecoder`: reads `cniVersion` from configuration bytes. */
export class ConfigDecoder {
  /** The config's `cniVersion` ("0.1.0" when missing or empty); throws `DecodeVersionError`. */
  decode(jsonBytes: string | Uint8Array): string {
    return decodeVersion(jsonBytes);
  }
}

/** A shared `ConfigDecoder`: `configDecoder.decode(bytes)` gives the config's `cniVersion`. */
export const configDecoder: ConfigDecoder = new ConfigDecoder();
