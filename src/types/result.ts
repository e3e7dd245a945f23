import type { GoMarshaler } from "../encoding/json.js";

/** A plugin's result in one CNI spec version (upstream `types.Result`). */
export interface Result extends GoMarshaler {
  /** The result's CNI version ("" until `getAsVersion` fills in the implemented version). */
  readonly cniVersion: string;
  /** Upstream `Version()`. */
  version(): string;
  /**
   * Upstream `GetAsVersion`: this result in `version` ("" means 0.1.0), itself when the version
   * matches. Throws `ConversionError` when it cannot be.
   */
  getAsVersion(version: string): Result;
  /** Upstream `Print`: the result as JSON indented by 4 spaces, with no trailing newline. */
  print(): string;
}
