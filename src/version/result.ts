/** Results by version, and a plugin's `prevResult` (upstream pkg/version/version.go). */
import { marshal } from "../encoding/json.js";
import { PrevResultError } from "../errors/version.js";
import { messageOf } from "../internal/error-message.js";
import { jsonKind } from "../internal/json-kind.js";
import { createResultForVersion, type Result } from "../types/index.js";

/**
 * Parses a result as the given CNI version (upstream `NewResult` = `create.Create`): throws
 * `unsupported CNI result version "<v>"` for an unknown version, or the version family's error
 * when the bytes declare another version.
 */
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
 * upstream `ParsePrevResult`; `undefined` when there is none (absent or JSON null).
 *
 * Results before 1.0.0 may carry no version, and a prevResult must match its configuration's
 * version, so the configuration's version is injected when the prevResult has none. Upstream
 * injects it under the key `CNIVersion` (only when that exact key is absent or `""`), then
 * marshals the map with sorted keys, so a `cniVersion` key already present sorts after it and
 * wins when decoding: a prevResult of another version is an error rather than relabelled
 * (`could not parse prevResult: result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion
 * is "0.2.0"`). This port produces the same bytes and so the same outcome.
 * The configuration is not modified (upstream moves the parsed result into `conf.PrevResult`).
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
