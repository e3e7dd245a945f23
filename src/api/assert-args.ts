/**
 * Run-time shape guards (each throws InvalidArgumentError) of what a JavaScript caller passes
 * to the CNIConfig verbs, called before any lock, file or plugin. A wrong shape is worse than a
 * crash: `{ ifname }` in a RuntimeConf would become an empty CNI_IFNAME, and `{ containerID,
 * ifName }` in GC's valid attachments would match nothing, so GC would DEL what it was told to
 * keep. Wrong types only: what upstream validates (names, codes 4 and 7) is cache/names.ts'.
 * A checked list or plugin configuration becomes the {@link Chain} the verbs' body runs.
 */
import type { NetworkConfigList, PluginConfig } from "../conf/index.js";
import { assertSpelled, nearKey, wrongTypeError } from "../errors/base.js";
import { isJSONObject } from "../internal/json-kind.js";
import type { GCArgs, RuntimeConf } from "./types.js";

type Obj = Record<string, unknown>;

function fail(path: string, expected: string, value: unknown, hint = ""): never {
  throw wrongTypeError(path, expected, value, hint);
}

/** ` (it has "ifname": the field is spelled "ifName")` when a key differs from `key` only in case. */
function spellingHint(obj: Obj, key: string): string {
  const near = nearKey(obj, key);
  return near === undefined
    ? ""
    : ` (it has ${JSON.stringify(near)}: the field is spelled ${JSON.stringify(key)})`;
}

function object(value: unknown, path: string, what: string): Obj {
  if (!isJSONObject(value)) fail(path, what, value);
  return value;
}

function requiredString(obj: Obj, key: string, path: string): void {
  const value = obj[key];
  if (typeof value !== "string") fail(`${path}.${key}`, "a string", value, spellingHint(obj, key));
}

function optional(obj: Obj, key: string): unknown {
  const value = obj[key];
  return value === null ? undefined : value;
}

/** `obj[key]`, when given (not null or undefined), of JavaScript type `type`. */
function optionalOfType(obj: Obj, key: string, type: "string" | "boolean", path: string): void {
  const value = optional(obj, key);
  if (value !== undefined && typeof value !== type) fail(`${path}.${key}`, `a ${type}`, value);
}

/**
 * CNIConfig's options: an object, its `path` (when given) Go's `[]string`, not one string; its
 * `cacheDir` a string (a number failed at the first call) and `durableCache` a boolean (`"no"`
 * read as true).
 */
export function assertConfigOptions(options: unknown): void {
  const obj = object(options, "options", "a CNIConfigOptions object");
  assertSpelled(obj, ["path", "cacheDir", "exec", "pluginNetns", "durableCache"], "options");
  const path = optional(obj, "path");
  if (path !== undefined && !(Array.isArray(path) && path.every((d) => typeof d === "string"))) {
    fail("options.path", "an array of plugin directories (strings)", path);
  }
  optionalOfType(obj, "cacheDir", "string", "options");
  optionalOfType(obj, "durableCache", "boolean", "options");
}

/** A RuntimeConf: containerID, netNS and ifName strings; args pairs; capabilityArgs object. */
export function assertRuntimeConf(rt: unknown, path = "rt"): asserts rt is RuntimeConf {
  const obj = object(rt, path, "a RuntimeConf object");
  for (const key of ["containerID", "netNS", "ifName"]) requiredString(obj, key, path);
  const args = optional(obj, "args");
  if (args !== undefined) {
    if (!Array.isArray(args)) fail(`${path}.args`, "an array of [key, value] string pairs", args);
    args.forEach((pair: unknown, i) => {
      const ok =
        Array.isArray(pair) &&
        pair.length === 2 &&
        typeof pair[0] === "string" &&
        typeof pair[1] === "string";
      if (!ok) fail(`${path}.args[${i}]`, "a [key, value] pair of strings", pair);
    });
  }
  const caps = optional(obj, "capabilityArgs");
  if (caps !== undefined && !isJSONObject(caps)) {
    fail(`${path}.capabilityArgs`, "an object of capability arguments", caps);
  }
  optionalOfType(obj, "cacheDir", "string", path);
}

/** GC's args: undefined, or `{ validAttachments?: { containerID, ifname }[] }`. */
export function assertGCArgs(args: unknown, path = "gcArgs"): asserts args is GCArgs | undefined {
  if (args === undefined) return;
  const obj = object(args, path, "a GCArgs object or undefined");
  // Another key (`validattachments`) leaves the list undefined: every attachment would be stale.
  const other = Object.keys(obj).find((k) => k !== "validAttachments");
  if (other !== undefined)
    fail(path, "{ validAttachments }", args, ` (it has ${JSON.stringify(other)})`);
  const valid = optional(obj, "validAttachments");
  if (valid === undefined) return;
  if (!Array.isArray(valid)) fail(`${path}.validAttachments`, "an array of GCAttachment", valid);
  valid.forEach((entry: unknown, i) => {
    const at = `${path}.validAttachments[${i}]`;
    const a = object(entry, at, "a GCAttachment object ({ containerID, ifname })");
    requiredString(a, "containerID", at);
    // GCAttachment follows the wire's spelling, `ifname`; RuntimeConf's `ifName` here must fail
    // rather than match nothing and let GC delete the attachment.
    requiredString(a, "ifname", at);
  });
}

/** One PluginConfig, as networkPluginConfFromBytes or a list's `plugins` gives it. */
export function assertPluginConfig(net: unknown, path = "net"): asserts net is PluginConfig {
  const what = "a PluginConfig ({ network, bytes }, as networkPluginConfFromBytes returns)";
  const obj = object(net, path, what);
  // A raw plugin object (`{ type: "bridge" }`) is the likely mistake: name the entry itself.
  if (obj.network === undefined && obj.bytes === undefined)
    fail(path, what, net, " without network and bytes");
  const network = object(obj.network, `${path}.network`, "the decoded plugin configuration");
  for (const key of ["name", "cniVersion", "type"]) requiredString(network, key, `${path}.network`);
  if (!(obj.bytes instanceof Uint8Array)) fail(`${path}.bytes`, "a Uint8Array", obj.bytes);
}

/** A NetworkConfigList, as networkConfFromBytes (confListFromBytes) gives it. */
export function assertNetworkList(list: unknown, path = "list"): asserts list is NetworkConfigList {
  const obj = object(list, path, "a NetworkConfigList object (from networkConfFromBytes)");
  for (const key of ["name", "cniVersion"]) requiredString(obj, key, path);
  for (const key of ["disableCheck", "disableGC"]) {
    const value = obj[key];
    if (value !== undefined && typeof value !== "boolean")
      fail(`${path}.${key}`, "a boolean", value);
  }
  const plugins = obj.plugins;
  if (!Array.isArray(plugins)) {
    fail(`${path}.plugins`, "an array of PluginConfig", plugins, spellingHint(obj, "plugins"));
  }
  plugins.forEach((p: unknown, i) => {
    assertPluginConfig(p, `${path}.plugins[${i}]`);
  });
  if (!(obj.bytes instanceof Uint8Array)) fail(`${path}.bytes`, "a Uint8Array", obj.bytes);
}

/**
 * What a verb runs: a list, or a single plugin configuration as a chain of one (upstream's
 * `*Network` verbs). The two differ only where upstream's do: a list's plugin errors name the
 * plugin and its place (a single one's are thrown as they are), only a list has `disableCheck`.
 */
export interface Chain {
  name: string;
  cniVersion: string;
  plugins: readonly PluginConfig[];
  /** The configuration bytes the cache record keeps. */
  bytes: Uint8Array;
  disableCheck: boolean;
  /** A list: a plugin's error is wrapped with its place in the chain (upstream's list verbs). */
  list: boolean;
}

/** A list's chain, the list checked first. */
export function listChain(list: unknown): Chain {
  assertNetworkList(list);
  return chainOf(list);
}

/** The chain of a list already checked (GC's DELs). */
export function chainOf(list: NetworkConfigList): Chain {
  const { name, cniVersion, plugins, bytes } = list;
  return { name, cniVersion, plugins, bytes, disableCheck: list.disableCheck, list: true };
}

/** A single plugin configuration's chain of one, the configuration checked first. */
export function singleChain(net: unknown): Chain {
  assertPluginConfig(net);
  const { name, cniVersion } = net.network;
  return { name, cniVersion, plugins: [net], bytes: net.bytes, disableCheck: false, list: false };
}
