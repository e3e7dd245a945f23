/**
 * The CNI error type (upstream `types.Error`) and the spec's error codes (from error-codes.ts).
 *
 * A plugin reports failure as `{"code","msg","details"}` on stdout; the runtime side turns that
 * into a `CNIError`. The class is branded with a registry symbol so that `instanceof` holds even
 * when two copies of this library are loaded in one process (a runtime and a plugin helper
 * bundled separately, say), as undici does for its errors.
 */

export {
  CNIError,
  type CNIErrorJSON,
  isCNIError,
  type LibcniErrorOptions as CNIErrorOptions,
} from "../errors/index.js";
// The codes live in error-codes.ts, a module of nothing else, so each entry point re-exports
// that one list.
export * from "./error-codes.js";
