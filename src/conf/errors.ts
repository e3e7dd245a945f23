/**
 * The errors thrown by configuration loading, from the library's error module.
 *
 * Upstream returns untyped `fmt.Errorf` values plus two named types (`NotFoundError`,
 * `NoConfigsFoundError`) that callers match with `errors.As`. Here every failure is a
 * `ConfError` (so a caller can tell a configuration problem from a bug with one check), the two
 * named types are subclasses, and an underlying error (JSON syntax, a Go-style type error, an
 * OS error) is kept as `cause`, as Go's `%w` keeps it. The messages are upstream's text.
 */
export type { LibcniErrorOptions as ConfErrorOptions } from "../errors/base.js";
export { ConfError, ConfFileError, NoConfigsFoundError, NotFoundError } from "../errors/conf.js";
