/**
 * CNI versions, as upstream pkg/version: the known versions, parsing and comparing them, VERSION
 * output, reconciliation, and results and `prevResult` by version.
 * @module
 */
export { ErrorIncompatible, PrevResultError, VersionError } from "../errors/version.js";
export { ConfigDecoder, configDecoder } from "./conf.js";
export type { VersionTuple } from "./parse.js";
export { greaterThan, greaterThanOrEqualTo, parseVersion } from "./parse.js";
export type { PluginInfo } from "./plugin-info.js";
export { decodePluginInfo, PluginDecoder, pluginSupports } from "./plugin-info.js";
export { Reconciler, reconcile } from "./reconcile.js";
export type { PrevResultSource } from "./result.js";
export { newResult, parsePrevResult } from "./result.js";
export { all, current, legacy, versionsStartingFrom } from "./version.js";
