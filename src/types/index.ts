/**
 * `libcni/types`: the vocabulary shared by runtimes and plugins (upstream `pkg/types` and its
 * `020`, `040`, `100` and `create` packages). TypeScript additions: `toGoJSON`, `goStruct` and
 * `RawJSON`, the hooks of Go's marshaling that a value uses to choose its JSON, and `toJSON()`
 * on every result (what `print()` prints).
 * @module
 */

export { goStruct } from "../encoding/json.js";
export {
  ArgsError,
  CNIError,
  type CNIErrorJSON,
  ConversionError,
  DecodeVersionError,
  isCNIError,
  ParseError,
  ResultVersionMismatchError,
  UnmarshalableArgsError,
  UnsupportedResultVersionError,
} from "../errors/types.js";
export { type GoMarshaler, RawJSON, toGoJSON } from "../internal/go-marshal.js";
export {
  type ArgsSpec,
  type ArgType,
  type ArgValue,
  type LoadedArgs,
  loadArgs,
  parseUnmarshallableBool,
  parseUnmarshallableString,
} from "./args.js";
export { type IPNet, ipNetToString, parseCIDR } from "./cidr.js";
export { convertResult, createResult, createResultForVersion, decodeVersion } from "./create.js";
export { currentResult } from "./current.js";
export type { DNS } from "./dns.js";
export * from "./error-codes.js";
export type { GCAttachment } from "./gc.js";
export { ipToString, parseIP } from "./ip.js";
export { decodePluginConf, type PluginConf } from "./plugin-conf.js";
export type { Result } from "./result.js";
export { ListResult } from "./result-common.js";
export type { Route } from "./route.js";
export {
  type IPConfig020,
  implementedSpecVersion020,
  Result020,
  type Result020Init,
  supportedVersions020,
} from "./v020.js";
export {
  type Interface040,
  type IPConfig040,
  implementedSpecVersion040,
  Result040,
  type Result040Init,
  supportedVersions040,
} from "./v040.js";
export {
  type Interface100,
  type IPConfig100,
  implementedSpecVersion100,
  Result100,
  type Result100Init,
  supportedVersions100,
} from "./v100.js";
