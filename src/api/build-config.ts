/**
 * Building each plugin's stdin, as upstream's `buildOneConfig` and `injectRuntimeConfig`.
 *
 * Both go through `injectConf` (decode into a Go map, set keys, re-marshal), so the bytes are
 * Go's: keys sorted at every level, HTML-safe escaping. The two injections are separate steps,
 * as upstream's: when a `runtimeConfig` is injected, the whole configuration (a `prevResult`
 * included) is decoded and re-marshalled a second time, which sorts a 0.x prevResult's keys
 * that the first step wrote in struct order. Upstream's tests assert these bytes exactly.
 */
import { injectConf, type PluginConfig } from "../conf/index.js";
import { injectConfText } from "../conf/inject.js";
import { EncodedJSON } from "../encoding/json.js";
import { encodeAroundPieces } from "../encoding/pieces.js";
import { utf8Encode } from "../internal/bytes.js";
import { resultPiecesInSlices } from "../types/encode-in-slices.js";
import type { Result } from "../types/index.js";
import type { RuntimeConf } from "./types.js";

/**
 * Upstream `injectRuntimeConfig`: `runtimeConfig` = each capability the plugin declares `true`
 * that the runtime passed in `capabilityArgs`; injected (replacing any `runtimeConfig` in the
 * configuration) only when not empty.
 */
export function injectRuntimeConfig(orig: PluginConfig, rt: RuntimeConf): PluginConfig {
  const rc = runtimeConfigOf(orig, rt);
  if (rc.size === 0) return orig;
  return injectConf(orig, { runtimeConfig: rc });
}

/** The `runtimeConfig` `injectRuntimeConfig` injects (empty: none). */
function runtimeConfigOf(orig: PluginConfig, rt: RuntimeConf): Map<string, unknown> {
  // A Map, so a capability named "__proto__" is an ordinary key.
  const rc = new Map<string, unknown>();
  const capabilityArgs = rt.capabilityArgs ?? {};
  for (const [capability, supported] of Object.entries(orig.network.capabilities ?? {})) {
    if (supported !== true) continue;
    if (!Object.hasOwn(capabilityArgs, capability)) continue;
    const data = capabilityArgs[capability];
    // JavaScript's undefined has no Go counterpart: treated as an absent key.
    if (data !== undefined) rc.set(capability, data);
  }
  return rc;
}

/**
 * Upstream `buildOneConfig`: the list's `name` and `cniVersion` set on the plugin's
 * configuration, `prevResult` when there is one, then the runtime config.
 */
export function buildOneConfig(
  name: string,
  cniVersion: string,
  orig: PluginConfig,
  prevResult: Result | undefined,
  rt: RuntimeConf | undefined,
): PluginConfig {
  const inject: Record<string, unknown> = { name, cniVersion };
  if (prevResult !== undefined) inject.prevResult = prevResult;
  const conf = injectConf(orig, inject);
  return rt === undefined ? conf : injectRuntimeConfig(conf, rt);
}

/**
 * The bytes of {@link buildOneConfig} in one encoding, for a long 1.x `prevResult` (see
 * types/encode-in-slices.ts), whose JSON is written beforehand in slices, as pieces; for any
 * other result, `buildOneConfig`'s. Upstream's second step (decode the first step's output,
 * set `runtimeConfig`, encode again) changes nothing else in those bytes: the first step's
 * output is already a Go map's encoding, and the one difference it makes, a prevResult written
 * as its map form, is asked for. So the output is neither parsed whole, as the two steps
 * would, nor built as one flat string.
 */
export async function buildOneConfigBytes(
  name: string,
  cniVersion: string,
  orig: PluginConfig,
  prevResult: Result,
  rt: RuntimeConf,
): Promise<Uint8Array> {
  const rc = runtimeConfigOf(orig, rt);
  const pieces = await resultPiecesInSlices(prevResult, rc.size > 0);
  if (pieces === undefined) return buildOneConfig(name, cniVersion, orig, prevResult, rt).bytes;
  const encode = (prevResultJSON: EncodedJSON): string => {
    const inject = new Map<string, unknown>([
      ["name", name],
      ["cniVersion", cniVersion],
      ["prevResult", prevResultJSON],
    ]);
    if (rc.size > 0) inject.set("runtimeConfig", rc);
    return injectConfText(orig, inject);
  };
  return encodeAroundPieces(encode, pieces) ?? utf8Encode(encode(new EncodedJSON(pieces.join(""))));
}
