/**
 * `libcni/types`: the vocabulary shared by runtimes and plugins (upstream `pkg/types` and its
 * `020`, `040`, `100` and `create` packages): errors, addresses, routes, DNS, results of every
 * CNI version with their conversions, and CNI_ARGS parsing.
 */

// For callers building capability args a Go runtime would send as structs (libcni/runtime).
export { goStruct } from "../encoding/json.js";
export * from "./args.js";
export * from "./cidr.js";
export { type Creator, convert, findCreator } from "./convert.js";
export { convertResult, createResult, createResultForVersion, decodeVersion } from "./create.js";
export * from "./dns.js";
export * from "./error.js";
export * from "./gc.js";
export * from "./ip.js";
export * from "./plugin-conf.js";
export * from "./result.js";
export * from "./route.js";
export * from "./v020.js";
export * from "./v040.js";
export * from "./v100.js";
