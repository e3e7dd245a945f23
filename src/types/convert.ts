/**
 * Converting a result between CNI versions (upstream `types/internal/convert.go`): a table of
 * converters from one version to a list of versions, exactly upstream's registrations, and
 * the creators that decode a result for a version (`internal/create.go`). The tables are built
 * on first use so that the result modules, which call `convert`, can be imported in any order.
 */
import { ConversionError, type Result, UnsupportedResultVersionError } from "./result.js";
import { convertWithin020, Result020, supportedVersions020 } from "./v020.js";
import {
  convertFrom020To040,
  convertFrom040To020,
  convertWithin040,
  Result040,
  supportedVersions040,
} from "./v040.js";
import {
  convertFrom020To100,
  convertFrom040To100,
  convertFrom100To020,
  convertFrom100To040,
  convertWithin100,
  decodeResult100,
  Result100,
  supportedVersions100,
} from "./v100.js";

type ConvertFn = (from: Result, toVersion: string) => Result;

interface Converter {
  from: string;
  to: readonly string[];
  fn: ConvertFn;
}

let converters: Converter[] | undefined;

function table(): Converter[] {
  converters ??= [
    // types020
    { from: "0.1.0", to: ["0.2.0"], fn: convertWithin020 },
    { from: "0.2.0", to: ["0.1.0"], fn: convertWithin020 },
    // types040 up-converters
    { from: "0.1.0", to: supportedVersions040, fn: convertFrom020To040 },
    { from: "0.2.0", to: supportedVersions040, fn: convertFrom020To040 },
    { from: "0.3.0", to: supportedVersions040, fn: convertWithin040 },
    { from: "0.3.1", to: supportedVersions040, fn: convertWithin040 },
    // types040 down-converters
    { from: "0.4.0", to: ["0.3.0", "0.3.1"], fn: convertWithin040 },
    { from: "0.4.0", to: ["0.1.0", "0.2.0"], fn: convertFrom040To020 },
    { from: "0.3.1", to: ["0.1.0", "0.2.0"], fn: convertFrom040To020 },
    { from: "0.3.0", to: ["0.1.0", "0.2.0"], fn: convertFrom040To020 },
    // types100 up-converters
    { from: "0.1.0", to: supportedVersions100, fn: convertFrom020To100 },
    { from: "0.2.0", to: supportedVersions100, fn: convertFrom020To100 },
    { from: "0.3.0", to: supportedVersions100, fn: convertFrom040To100 },
    { from: "0.3.1", to: supportedVersions100, fn: convertFrom040To100 },
    { from: "0.4.0", to: supportedVersions100, fn: convertFrom040To100 },
    { from: "1.0.0", to: ["1.1.0"], fn: convertWithin100 },
    // types100 down-converters
    { from: "1.0.0", to: ["0.3.0", "0.3.1", "0.4.0"], fn: convertFrom100To040 },
    { from: "1.0.0", to: ["0.1.0", "0.2.0"], fn: convertFrom100To020 },
    { from: "1.1.0", to: ["0.3.0", "0.3.1", "0.4.0"], fn: convertFrom100To040 },
    { from: "1.1.0", to: ["0.1.0", "0.2.0"], fn: convertFrom100To020 },
    { from: "1.1.0", to: ["1.0.0"], fn: convertWithin100 },
  ];
  return converters;
}

/** The result classes' own kinds, checked before a converter touches their fields. */
function kindOf(version: string): (new () => Result) | undefined {
  if (version === "0.1.0" || version === "0.2.0") return Result020;
  if (supportedVersions040.includes(version)) return Result040;
  if (supportedVersions100.includes(version)) return Result100;
  return undefined;
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
  const converter = table().find((c) => c.from === fromVersion && c.to.includes(target));
  const kind = kindOf(fromVersion);
  // A converter is registered for a version, so it only applies to the class that owns it
  // (a Result040 labelled "1.0.0" by hand is not a 1.x result).
  if (!converter || !kind || !(from instanceof kind)) {
    throw new ConversionError(`no converter for CNI result version ${fromVersion} to ${target}`);
  }
  return converter.fn(from, target);
}

/** Decodes a result of the versions it was registered for, from a parsed JSON value. */
export type Creator = (value: unknown) => Result;

let creators: { versions: readonly string[]; create: Creator }[] | undefined;

/**
 * Upstream `findCreator`: the decoder of the result type that handles `version`. Throws
 * `UnsupportedResultVersionError` (`unsupported CNI result version "X"`) when none does.
 */
export function findCreator(version: string): Creator {
  creators ??= [
    { versions: supportedVersions020, create: (v) => Result020.fromValue(v) },
    { versions: supportedVersions040, create: (v) => Result040.fromValue(v) },
    // The creators decode fresh parses (plugin output, cache records, createResult's bytes).
    { versions: supportedVersions100, create: (v) => decodeResult100(v, true) },
  ];
  const found = creators.find((c) => c.versions.includes(version));
  if (!found) throw new UnsupportedResultVersionError(version);
  return found.create;
}
