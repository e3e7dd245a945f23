/**
 * Converting a result between CNI versions (upstream `types/internal/convert.go`): a registry of
 * converters from one version to a list of versions, and of the creators that decode a result
 * for a version (`internal/create.go`). As upstream, each result module registers its own at
 * load (Go's `init()`: v020, then v040, then v100, which import each other in that order), so
 * this module imports none of them and the result modules can call `convert`.
 */
import { ConversionError, type Result, UnsupportedResultVersionError } from "./result.js";

type ConvertFn = (from: Result, toVersion: string) => Result;

interface Converter {
  from: string;
  to: readonly string[];
  fn: ConvertFn;
}

/** Decodes a result of the versions it was registered for, from a parsed JSON value. */
export type Creator = (value: unknown) => Result;

interface ResultType {
  versions: readonly string[];
  /** The class whose instances hold these versions. */
  owner: abstract new (
    ...args: never[]
  ) => Result;
  create: Creator;
}

const converters: Converter[] = [];
const resultTypes: ResultType[] = [];

/** Upstream `convert.RegisterConverter`: `fn` converts results of `from` into each of `to`. */
export function registerConverter(from: string, to: readonly string[], fn: ConvertFn): void {
  converters.push({ from, to, fn });
}

/**
 * Upstream `convert.RegisterCreator`: `create` decodes results of `versions`, which are
 * instances of `owner`.
 */
export function registerCreator(
  versions: readonly string[],
  owner: ResultType["owner"],
  create: Creator,
): void {
  resultTypes.push({ versions, owner, create });
}

/**
 * Upstream `convert.Convert`: `from` in CNI version `toVersion` ("" means 0.1.0); `from` itself
 * when the versions match. Throws `ConversionError` when no converter exists or the target
 * cannot hold the result.
 */
export function convert(from: Result, toVersion: string): Result {
  const target = toVersion === "" ? "0.1.0" : toVersion;
  const fromVersion = from.version();
  if (fromVersion === target) return from;
  const converter = converters.find((c) => c.from === fromVersion && c.to.includes(target));
  // The result classes' own kinds, checked before a converter touches their fields: a
  // converter is registered for a version, so it only applies to the class that owns it (a
  // Result040 labelled "1.0.0" by hand is not a 1.x result). "" is no result's own version.
  const owner =
    fromVersion === "" ? undefined : resultTypes.find((t) => t.versions.includes(fromVersion));
  if (!converter || !owner || !(from instanceof owner.owner)) {
    throw new ConversionError(`no converter for CNI result version ${fromVersion} to ${target}`);
  }
  return converter.fn(from, target);
}

/**
 * Upstream `findCreator`: the decoder of the result type that handles `version`. Throws
 * `UnsupportedResultVersionError` (`unsupported CNI result version "X"`) when none does.
 */
export function findCreator(version: string): Creator {
  const found = resultTypes.find((t) => t.versions.includes(version));
  if (!found) throw new UnsupportedResultVersionError(version);
  return found.create;
}
