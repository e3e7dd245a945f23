/**
 * What the result classes share: types040 and types100 have the same layout over their own
 * Interface and IPConfig types, and every version the same GetAsVersion/GetResult.
 */
import { marshal, marshalIndent } from "../encoding/json.js";
import { parseJSON } from "../encoding/parse.js";
import { defineStruct, type FieldSchema, type StructSchema } from "../encoding/struct.js";
import { ConversionError, ResultVersionMismatchError } from "../errors/types.js";
import { toGoJSON } from "../internal/go-marshal.js";
import { copyIPNet, type IPNet } from "./cidr.js";
import { convert, registerCreator } from "./convert.js";
import { decodeIP, decodeIPNet, listItemDecoder } from "./decode.js";
import { type DNS, dnsField } from "./dns.js";
import { copyIP } from "./ip.js";
import type { Result } from "./result.js";
import { decodeRoute, type Route } from "./route.js";

const codecs = new Map<unknown, ListResultCodec<unknown, unknown>>();

/** Records how a `ListResult` subclass decodes, and registers `create` for its versions. */
export function defineListResult<I, P>(
  cls: abstract new (...args: never[]) => ListResult<I, P>,
  codec: ListResultCodec<I, P>,
  create: (value: unknown) => Result,
): void {
  codecs.set(cls, codec as ListResultCodec<unknown, unknown>);
  registerCreator(codec.supportedVersions, cls, create);
}

function codecOf(cls: unknown): ListResultCodec<unknown, unknown> {
  const codec = codecs.get(cls);
  if (codec === undefined) throw new ConversionError("failed to convert result");
  return codec;
}

/** The shared base of `Result040` and `Result100` (not a Go type). */
export abstract class ListResult<I, P> implements Result {
  /** The result's version ("" until first converted). */
  cniVersion: string;
  /** Interfaces the plugin created or configured. */
  interfaces: I[];
  /** IP configurations. */
  ips: P[];
  /** Routes. */
  routes: Route[];
  /** DNS settings. */
  dns: DNS;

  /** A result from its fields; absent ones take Go's zero values. */
  constructor(
    init: { cniVersion?: string; interfaces?: I[]; ips?: P[]; routes?: Route[]; dns?: DNS } = {},
  ) {
    this.cniVersion = init.cniVersion ?? "";
    this.interfaces = init.interfaces ?? [];
    this.ips = init.ips ?? [];
    this.routes = init.routes ?? [];
    this.dns = init.dns ?? {};
  }

  /** Upstream `Version()`. */
  version(): string {
    return this.cniVersion;
  }

  /** Upstream `GetAsVersion`: an empty `cniVersion` is first set to the implemented version. */
  getAsVersion(version: string): Result {
    return resultAsVersion(this, codecOf(this.constructor).implementedVersion, version);
  }

  // biome-ignore-start lint/complexity/noThisInStatic: `this` is the subclass a static is called on
  /** Upstream `NewResult` of a parsed JSON value (another version: ResultVersionMismatchError). */
  static fromValue<T, I, P>(
    this: new (init: {
      cniVersion: string;
      interfaces: I[];
      ips: P[];
      routes: Route[];
      dns: DNS;
    }) => T,
    value: unknown,
  ): T {
    const codec = codecOf(this) as ListResultCodec<I, P>;
    const r = codec.decoder.decode(value);
    const cniVersion = r.cniVersion ?? "";
    const fields = {
      cniVersion,
      interfaces: (r.interfaces ?? []).map(codec.interfaceItem),
      ips: (r.ips ?? []).map(codec.ipItem),
      routes: (r.routes ?? []).map(routeItem),
      dns: r.dns ?? {},
    };
    if (!codec.supportedVersions.includes(cniVersion)) {
      throw new ResultVersionMismatchError(codec.supportedVersions, cniVersion);
    }
    return new this(fields);
  }

  /** Upstream `NewResult`: decodes JSON (text or bytes) of one of the class's versions. */
  static fromJSON<T>(this: { fromValue(value: unknown): T }, json: string | Uint8Array): T {
    return this.fromValue(parseJSON(json));
  }

  /** Upstream `GetResult`: `result.getAsVersion(<implemented version>)` as this class. */
  static getResult<T extends Result>(
    this: abstract new (
      ...args: never[]
    ) => T,
    result: Result,
  ): T {
    const converted = result.getAsVersion(codecOf(this).implementedVersion);
    if (!(converted instanceof this)) throw new ConversionError("failed to convert result");
    return converted;
  }

  /** Upstream `NewResultFromResult`: `result` converted to the class's implemented version. */
  static fromResult<T extends Result>(
    this: abstract new (
      ...args: never[]
    ) => T,
    result: Result,
  ): T {
    return convert(result, codecOf(this).implementedVersion) as T;
  }
  // biome-ignore-end lint/complexity/noThisInStatic: `this` is the subclass a static is called on

  /** Upstream `Print`: 4-space indented JSON, no trailing newline. */
  print(): string {
    return marshalIndent(this);
  }

  /** The spec JSON, for `JSON.stringify(result)`: what {@link print} prints, as a plain object. */
  toJSON(): unknown {
    return JSON.parse(marshal(this));
  }

  /** The value the Go-compatible encoder writes for this result (upstream's JSON form). */
  abstract [toGoJSON](): unknown;
}

interface RawListResult {
  cniVersion?: string;
  interfaces?: unknown[];
  ips?: unknown[];
  routes?: unknown[];
  dns?: DNS;
}

/** How one version's result decodes (`listResultCodec`). */
export type ListResultCodec<I, P> = ReturnType<typeof listResultCodec<I, P>>;

/** A route of a 0.4.0 or 1.x result's list, decoded as `ListResultCodec.ipItem`. */
export const routeItem = listItemDecoder("routes", "types.Route", decodeRoute);

/**
 * How a result of Go package `pkg` decodes: interfaces of `name`, `mac`, `sandbox` and
 * `interfaceFields`, IP configurations with a `version` in 0.x. `interfaceItem` and `ipItem`
 * decode a list's entry with the errors the whole list's decoding gives.
 */
export function listResultCodec<I, P>(
  pkg: "types040" | "types100",
  implementedVersion: string,
  supportedVersions: readonly string[],
  interfaceFields: Record<string, FieldSchema>,
) {
  const string = { type: "string" } as const;
  const schema = {
    fields: {
      cniVersion: string,
      interfaces: {
        type: "array",
        goType: `[]*${pkg}.Interface`,
        items: {
          type: "struct",
          pointer: true,
          goName: "Interface",
          goType: `${pkg}.Interface`,
          struct: { fields: { name: string, mac: string, sandbox: string, ...interfaceFields } },
        },
      },
      ips: { type: "array", items: { type: "raw" }, goType: `[]*${pkg}.IPConfig` },
      routes: { type: "array", items: { type: "raw" }, goType: "[]*types.Route" },
      dns: dnsField,
    },
  } satisfies StructSchema;
  const decodeIPConfig = ipConfigDecoder(pkg) as (value: unknown) => P;
  const withName = (i: unknown): I => ({ ...(i as I), name: (i as { name?: string }).name ?? "" });
  return {
    implementedVersion,
    supportedVersions,
    schema,
    decoder: defineStruct<RawListResult>("Result", { ...schema, goType: `${pkg}.Result` }),
    decodeIPConfig,
    interfaceItem: listItemDecoder("interfaces", `${pkg}.Interface`, withName),
    ipItem: listItemDecoder("ips", `${pkg}.IPConfig`, decodeIPConfig),
  };
}

/** The fields 0.4.0 and 1.x IP configurations share. */
interface IPConfigFields {
  address: IPNet;
  interface?: number;
  gateway?: Uint8Array;
}

/** Upstream `IPConfig.UnmarshalJSON` of types040 (with `version`) or types100 (without). */
function ipConfigDecoder(pkg: "types040" | "types100") {
  const withVersion = pkg === "types040";
  type RawIPConfig = { version?: string; interface?: number; address?: unknown; gateway?: string };
  const decoder = defineStruct<RawIPConfig>("ipConfig", {
    goType: `${pkg}.ipConfig`,
    fields: {
      ...(withVersion ? { version: { type: "string" } } : {}),
      interface: { type: "int" },
      address: { type: "raw" },
      gateway: { type: "string", goType: "net.IP" },
    },
  });
  return (value: unknown) => {
    const c = decoder.decode(value);
    const address = decodeIPNet(c.address, "ipConfig", "address");
    const ipc: IPConfigFields & { version?: string } = withVersion
      ? { version: c.version ?? "", address }
      : { address };
    if (c.interface !== undefined) ipc.interface = c.interface;
    const gateway = decodeIP(c.gateway);
    if (gateway) ipc.gateway = gateway;
    return ipc;
  };
}

/** Upstream `GetAsVersion`: an empty `cniVersion` is first set to `implementedVersion`. */
export function resultAsVersion(
  result: Result & { cniVersion: string },
  implementedVersion: string,
  version: string,
): Result {
  if (result.cniVersion === "") result.cniVersion = implementedVersion;
  return convert(result, version);
}

/**
 * The fields of `ip` copied onto `out` in Go's struct order (address, interface, gateway): the
 * copy of a 0.4.0 or 1.x IP configuration.
 */
export function copyIPConfigFields<T extends object>(
  ip: IPConfigFields,
  out: T,
): T & IPConfigFields {
  const copy = out as T & IPConfigFields;
  copy.address = copyIPNet(ip.address);
  if (ip.interface !== undefined) copy.interface = ip.interface;
  if (ip.gateway) copy.gateway = copyIP(ip.gateway);
  return copy;
}
