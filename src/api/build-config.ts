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
import type { EncodedJSON } from "../encoding/json.js";
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
export function runtimeConfigOf(orig: PluginConfig, rt: RuntimeConf): Map<string, unknown> {
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
 * The text {@link buildOneConfig} gives for a `prevResult` already encoded (`prevResultJSON`)
 * and the `runtimeConfig` of {@link runtimeConfigOf}, in one encoding (see api/documents.ts).
 */
export function buildOneConfigText(
  name: string,
  cniVersion: string,
  orig: PluginConfig,
  prevResultJSON: EncodedJSON,
  runtimeConfig: Map<string, unknown>,
): string {
  const inject = new Map<string, unknown>([
    ["name", name],
    ["cniVersion", cniVersion],
    ["prevResult", prevResultJSON],
  ]);
  if (runtimeConfig.size > 0) inject.set("runtimeConfig", runtimeConfig);
  return injectConfText(orig, inject);
}
