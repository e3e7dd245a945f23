/** Results by version, and a plugin's `prevResult` (upstream pkg/version/version.go). */

import { marshal } from "../encoding/json.js";
import { PrevResultError } from "../errors/version.js";
import { messageOf } from "../internal/error-message.js";
import { jsonKind } from "../internal/json-kind.js";
import { createResultForVersion, type Result } from "../types/index.js";

/** Parses a result as the given CNI version (upstream `NewResult`, `create.Create`). */
export function newResult(version: string, resultBytes: string | Uint8Array): Result {
  return createResultForVersion(version, resultBytes);
}

/** What `parsePrevResult` reads from a plugin configuration; `PluginConf` has both fields. */
export interface PrevResultSource {
  /** The configuration's CNI version. */
  readonly cniVersion: string;
  /** The configuration's `prevResult` as decoded JSON (an object), if any. */
  readonly rawPrevResult?: unknown;
}

/**
 * Parses a plugin configuration's `prevResult` as a result of the configuration's version, as
 * upstream `ParsePrevResult`; `undefined` when there is none (absent or JSON null). The
 * configuration's version is injected as upstream does, under the key `CNIVersion`, so an
 * existing `cniVersion` sorts after it and wins (docs/deviations/version.md); `conf` is left
 * alone.
 */
export function parsePrevResult(conf: PrevResultSource): Result | undefined {
  const raw = conf.rawPrevResult;
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    // Go cannot get here: the PluginConf decoder already rejects a non-object prevResult.
    throw new PrevResultError(
      `could not parse prevResult: json: cannot unmarshal ${jsonKind(raw)} into Go struct field PluginConf.prevResult of type map[string]interface {}`,
    );
  }
  const prev: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  if (!Object.hasOwn(prev, "CNIVersion") || prev.CNIVersion === "") {
    prev.CNIVersion = conf.cniVersion;
  }
  let resultBytes: string;
  try {
    resultBytes = marshal(prev);
  } catch (err) {
    throw new PrevResultError(`could not serialize prevResult: ${messageOf(err)}`, { cause: err });
  }
  try {
    return createResultForVersion(conf.cniVersion, resultBytes);
  } catch (err) {
    throw new PrevResultError(`could not parse prevResult: ${messageOf(err)}`, { cause: err });
  }
}
