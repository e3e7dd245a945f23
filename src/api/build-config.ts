/**
 * Building each plugin's stdin, as upstream's `buildOneConfig` and `injectRuntimeConfig`: both
 * through `injectConf` (Go's map encoding), as two steps, since the second re-marshals the
 * whole configuration and so sorts a 0.x prevResult's keys the first wrote in struct order.
 * Upstream's tests assert these bytes exactly.
 */
import { unmarshalMap, wrapErrors } from "../conf/bytes.js";
import { injectConf, type PluginConfig } from "../conf/index.js";
import { compareUTF8, EncodedJSON, marshal, marshalAsMap } from "../encoding/json.js";
import { setOwn } from "../encoding/parse.js";
import { foldsToOtherKey } from "../encoding/struct.js";
import { utf8Encode } from "../internal/bytes.js";
import { attempt } from "../internal/error-message.js";
import type { Result } from "../types/index.js";
import { decodePluginConf } from "../types/plugin-conf.js";
import type { RuntimeConf } from "./types.js";

/**
 * Upstream `injectRuntimeConfig`: `runtimeConfig` = each capability the plugin declares `true`
 * that the runtime passed in `capabilityArgs`; injected (replacing any `runtimeConfig` in the
 * configuration) only when not empty.
 */
export function injectRuntimeConfig(orig: PluginConfig, rt: RuntimeConf): PluginConfig {
  const rc = runtimeConfigOf(orig.network.capabilities, rt);
  if (rc.size === 0) return orig;
  return injectConf(orig, { runtimeConfig: rc });
}

/** The `runtimeConfig` `injectRuntimeConfig` injects for these capabilities (empty: none). */
export function runtimeConfigOf(
  capabilities: Readonly<Record<string, boolean>> | undefined,
  rt: RuntimeConf,
): Map<string, unknown> {
  // A Map, so a capability named "__proto__" is an ordinary key.
  const rc = new Map<string, unknown>();
  const capabilityArgs = rt.capabilityArgs ?? {};
  for (const [capability, supported] of Object.entries(capabilities ?? {})) {
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
 * The capabilities of what upstream's first step parses (`ConfFromBytes` of the configuration's
 * map with `name`, `cniVersion` and `prevResult` set), which its second step reads, when that
 * decodes with a `type`: the same map, its keys in the order the encoding writes them (Go's
 * decoder keeps the last of keys that fold together), decoded without the text in between (a
 * parsed map encodes and parses back to itself). Undefined when it does not.
 */
function reparsedCapabilities(
  config: Record<string, unknown>,
): { capabilities?: Record<string, boolean> } | undefined {
  const values = new Map<string, unknown>(Object.keys(config).map((k) => [k, config[k]]));
  values.set("name", "").set("cniVersion", "").set("prevResult", {});
  const probe: Record<string, unknown> = {};
  for (const key of [...values.keys()].sort(compareUTF8)) setOwn(probe, key, values.get(key));
  const conf = attempt(() => decodePluginConf(probe));
  return conf === undefined || conf.type === "" ? undefined : { capabilities: conf.capabilities };
}

/**
 * A plugin's configuration prepared once (per PluginConfig) so that a call encodes its stdin
 * once, from the top-level values already encoded, without upstream's three parses (same
 * bytes, same errors): upstream's two steps write one encoding of the configuration's map with
 * `name`, `cniVersion`, `prevResult` (its map form when a `runtimeConfig` follows) and
 * `runtimeConfig` set, as a Go map encodes the same after a round trip; and their parses fail
 * only for a configuration whose own bytes fail them, which is checked here once: such a
 * configuration takes upstream's steps on every call, for their errors.
 */
export class StdinTemplate {
  /**
   * The configuration's top-level values, each encoded; undefined when a call takes
   * upstream's steps (bytes that are not a JSON object, or that fail `ConfFromBytes`).
   */
  private readonly members: ReadonlyMap<string, EncodedJSON> | undefined;
  /** True when a key other than `cniVersion` folds to it (Go's decoder may read that one). */
  private readonly otherVersionKey: boolean = true;
  /** The capabilities Go's second step reads: from the bytes, not the caller's `network`. */
  readonly capabilities: Readonly<Record<string, boolean>> | undefined;
  /** A copy of the bytes it was prepared from (see {@link StdinTemplate.preparedFrom}). */
  private readonly source: Uint8Array;

  constructor(readonly net: PluginConfig) {
    this.source = net.bytes.slice();
    try {
      const config = unmarshalMap(net.bytes);
      const reparsed = config === null ? undefined : reparsedCapabilities(config);
      if (config !== null && reparsed !== undefined) {
        const keys = Object.keys(config);
        this.members = new Map(keys.map((k) => [k, new EncodedJSON(marshal(config[k]))]));
        this.otherVersionKey = keys.some((k) => foldsToOtherKey(k, "cniVersion"));
        this.capabilities = reparsed.capabilities;
      }
    } catch {
      // Not prepared (`members` undefined): every call takes upstream's steps.
    }
  }

  /**
   * True while `bytes` hold what it was prepared from: upstream parses the bytes on every call,
   * so a configuration whose bytes were replaced, or changed in place, is prepared again.
   */
  preparedFrom(bytes: Uint8Array): boolean {
    return Buffer.compare(bytes, this.source) === 0;
  }

  /** False when a call takes upstream's steps (see `members`). */
  get prepared(): boolean {
    return this.members !== undefined;
  }

  /**
   * The `cniVersion` Go reads back from this configuration's stdin built for `cniVersion`, when
   * it is that one for certain; undefined when the stdin must be read for it.
   */
  versionOfStdin(cniVersion: string): string | undefined {
    return this.members === undefined || this.otherVersionKey ? undefined : cniVersion;
  }

  /** The stdin: the bytes of {@link buildOneConfig}. */
  bytes(
    name: string,
    cniVersion: string,
    prevResult: Result | undefined,
    rt: RuntimeConf,
  ): Uint8Array {
    if (this.members === undefined)
      return buildOneConfig(name, cniVersion, this.net, prevResult, rt).bytes;
    const runtimeConfig = runtimeConfigOf(this.capabilities, rt);
    const encode = runtimeConfig.size > 0 ? marshalAsMap : marshal;
    const prevResultJSON =
      prevResult === undefined
        ? undefined
        : wrapErrors("", () => new EncodedJSON(encode(prevResult)));
    return utf8Encode(this.text(name, cniVersion, prevResultJSON, runtimeConfig) as string);
  }

  /**
   * The text of {@link StdinTemplate.bytes} for a `prevResult` already encoded (its map form
   * when `runtimeConfig` is not empty); undefined when a call takes upstream's steps.
   */
  text(
    name: string,
    cniVersion: string,
    prevResultJSON: EncodedJSON | undefined,
    runtimeConfig: Map<string, unknown>,
  ): string | undefined {
    if (this.members === undefined) return undefined;
    const config = new Map<string, unknown>(this.members);
    config.set("name", name).set("cniVersion", cniVersion);
    if (prevResultJSON !== undefined) config.set("prevResult", prevResultJSON);
    if (runtimeConfig.size > 0) config.set("runtimeConfig", runtimeConfig);
    return wrapErrors("", () => marshal(config));
  }
}
