/**
 * The registries of converters between CNI versions (upstream `types/internal/convert.go`) and of
 * the creators that decode a result for a version (`internal/create.go`). Each result module
 * registers its own at load, as Go's `init()` (v020, v040, v100: each imports the one before).
 */
import { ConversionError, UnsupportedResultVersionError } from "../errors/types.js";
import type { Result } from "./result.js";

type ConvertFn = (from: Result, toVersion: string) => Result;

type Creator = (value: unknown) => Result;

/** The class whose instances hold a result type's versions. */
type Owner = abstract new (...args: never[]) => Result;

const converters: { from: readonly string[]; to: readonly string[]; fn: ConvertFn }[] = [];
const resultTypes: { versions: readonly string[]; owner: Owner; create: Creator }[] = [];

/** Upstream `convert.RegisterConverter`, for each of `from`: `fn` converts into each of `to`. */
export function registerConverter(
  from: readonly string[],
  to: readonly string[],
  fn: ConvertFn,
): void {
  converters.push({ from, to, fn });
}

/** Upstream `convert.RegisterCreator`: `create` decodes `versions` into instances of `owner`. */
export function registerCreator(versions: readonly string[], owner: Owner, create: Creator): void {
  resultTypes.push({ versions, owner, create });
}

/**
 * Upstream `convert.Convert`: `from` in version `toVersion` ("" means 0.1.0), itself when the
 * versions match. Throws `ConversionError` when no converter exists or the target cannot hold it.
 */
export function convert(from: Result, toVersion: string): Result {
  const target = toVersion === "" ? "0.1.0" : toVersion;
  const fromVersion = from.version();
  if (fromVersion === target) return from;
  const converter = converters.find((c) => c.from.includes(fromVersion) && c.to.includes(target));
  // A converter applies only to the class that owns its version (a Result040 labelled "1.0.0"
  // by hand is not a 1.x result). "" is no result's own version.
  const owner =
    fromVersion === "" ? undefined : resultTypes.find((t) => t.versions.includes(fromVersion));
  if (!converter || !owner || !(from instanceof owner.owner)) {
    throw new ConversionError(`no converter for CNI result version ${fromVersion} to ${target}`);
  }
  checkEntries(from);
  return converter.fn(from, target);
}

/**
 * Every entry a converter reads must be an object: a result built in JavaScript can hold a
 * `null`, on which upstream's converters panic (containernetworking/cni#1191); it is named in a
 * ConversionError instead.
 */
function checkEntries(from: Result): void {
  const r = from as unknown as Record<string, unknown>;
  const check = (list: unknown, field: string): void => {
    if (!Array.isArray(list)) return;
    for (let i = 0; i < list.length; i++) {
      const entry: unknown = list[i];
      if (typeof entry !== "object" || entry === null) {
        throw new ConversionError(
          `cannot convert: ${field}[${i}] is ${entry === null ? "null" : typeof entry}, not an object`,
        );
      }
    }
  };
  for (const field of ["interfaces", "ips", "routes"]) check(r[field], field);
  // 0.2.0: each IP configuration's routes.
  for (const family of ["ip4", "ip6"] as const) {
    const ipc = r[family] as { routes?: unknown } | null | undefined;
    if (typeof ipc === "object" && ipc !== null) check(ipc.routes, `${family}.routes`);
  }
}

/** Upstream `findCreator`; throws `UnsupportedResultVersionError` for an unknown version. */
export function findCreator(version: string): Creator {
  const found = resultTypes.find((t) => t.versions.includes(version));
  if (!found) throw new UnsupportedResultVersionError(version);
  return found.create;
}
