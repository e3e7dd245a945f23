/**
 * The library's error model, one file per area (undici's `lib/core/errors.js` is the model).
 *
 * - Every error a public function throws is a {@link LibcniError}: one `catch` tells the
 *   library's errors from a bug.
 * - Each class has a stable string identifier, `id` (`LIBCNI_ERR_PLUGIN_NOT_FOUND`, ...), on the
 *   class and on each instance; docs/errors.md lists them, with the file of each area.
 *   `name` is the class name.
 * - `instanceof` answers by a registry-symbol brand, so it holds for an error made by another
 *   copy of the package in the same process (a runtime and a plugin helper bundled apart).
 * - `code` is the spec's numeric CNI error code, on {@link CNIError} and its subclasses only
 *   (Go's `types.Error.Code`); an OS errno name is `errno`, never `code`.
 * - What an error wraps is the standard `cause`, as Go's `%w`: `err.cause` is what
 *   `errors.Unwrap(err)` returns in Go.
 *
 * This barrel is for the main entry only: the modules that throw import the area's own file
 * (`./types.js`, `./version.js`, ...), so an entry loads the error classes its calls can throw,
 * not all of them. Which entry point exports each class is docs/errors.md's "Where to import".
 */
export * from "./api.js";
export * from "./base.js";
export * from "./cache.js";
export * from "./conf.js";
export * from "./go.js";
export * from "./invoke.js";
export * from "./netns.js";
export * from "./runtime.js";
export * from "./spawner.js";
export * from "./testing.js";
export * from "./types.js";
export * from "./version.js";
