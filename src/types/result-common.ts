/**
 * What the result classes share. Upstream's types040 and types100 have the same `Result` layout
 * (cniVersion, interfaces, ips, routes, dns) over their own Interface and IPConfig types, and
 * every result version has the same GetAsVersion/GetResult: written once here. A subclass
 * brings its Go encoding and registers its codec and implemented version with
 * {@link defineListResult}.
 */
import { marshal, marshalIndent } from "../encoding/json.js";
import { parseJSON } from "../encoding/parse.js";
import {
  defineStruct,
  type FieldSchema,
  type StructDecoder,
  type StructSchema,
} from "../encoding/struct.js";
import { ConversionError, ResultVersionMismatchError } from "../errors/types.js";
import { toGoJSON } from "../internal/go-marshal.js";
import { copyIPNet, type IPNet } from "./cidr.js";
import { convert } from "./convert.js";
import { decodeList, structValue } from "./decode.js";
import type { DNS } from "./dns.js";
import { dnsField } from "./dns.js";
import { copyIP } from "./ip.js";
import type { Result } from "./result.js";
import { decodeRoute, type Route } from "./route.js";

/** The fields of a 0.3.x/0.4.0 or 1.x result, over the version's interface and IP types. */
interface ListResultFields<I, P> {
  cniVersion: string;
  interfaces: I[];
  ips: P[];
  routes: Route[];
  dns: DNS;
}

interface ListResultDefinition {
  implementedVersion: string;
  codec: ListResultCodec<unknown, unknown>;
}

const definitions = new Map<unknown, ListResultDefinition>();

/**
 * Records what a `ListResult` subclass is: the version it implements (its Go package's
 * `ImplementedSpecVersion`) and how its JSON decodes.
 */
export function defineListResult<I, P>(
  cls: abstract new (...args: never[]) => ListResult<I, P>,
  implementedVersion: string,
  codec: ListResultCodec<I, P>,
): void {
  definitions.set(cls, { implementedVersion, codec: codec as ListResultCodec<unknown, unknown> });
}

function definitionOf(cls: unknown): ListResultDefinition {
  const definition = definitions.get(cls);
  if (definition === undefined) throw new ConversionError("failed to convert result");
  return definition;
}

function implementedVersionOf(cls: unknown): string {
  return definitionOf(cls).implementedVersion;
}

/**
 * The shared base of `Result040` and `Result100` (not a Go type): upstream's types040 and
 * types100 results have the same fields over their own interface and IP configuration types.
 */
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

  /** Upstream `Version()`: the result's CNI version. */
  version(): string {
    return this.cniVersion;
  }

  /**
   * Upstream `GetAsVersion`: converted to `version` ("" means 0.1.0), this same object when the
   * version matches. An empty `cniVersion` is first set to the implemented version (as upstream).
   */
  getAsVersion(version: string): Result {
    return resultAsVersion(this, implementedVersionOf(this.constructor), version);
  }

  /**
   * Upstream `NewResult` on a parsed JSON value: a result of one of the class's versions, or a
   * type error, or `ResultVersionMismatchError` for another version.
   */
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
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass the static was called on
    const codec = definitionOf(this).codec as ListResultCodec<I, P>;
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass the static was called on
    return new this(decodeListResult(value, codec));
  }

  /** Upstream `NewResult`: decodes JSON (text or bytes) of one of the class's versions. */
  static fromJSON<T>(this: { fromValue(value: unknown): T }, json: string | Uint8Array): T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass the static was called on
    return this.fromValue(parseJSON(json));
  }

  /** Upstream `GetResult`: `result.getAsVersion(<implemented version>)` as this class. */
  static getResult<T extends Result>(
    this: abstract new (
      ...args: never[]
    ) => T,
    result: Result,
  ): T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass the static was called on
    return getResultAs(result, implementedVersionOf(this), this);
  }

  /** Upstream `NewResultFromResult`: `result` converted to the class's implemented version. */
  static fromResult<T extends Result>(
    this: abstract new (
      ...args: never[]
    ) => T,
    result: Result,
  ): T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass the static was called on
    return convert(result, implementedVersionOf(this)) as T;
  }

  /** Upstream `Print`: 4-space indented JSON, no trailing newline. */
  print(): string {
    return marshalIndent(this);
  }

  /**
   * The spec JSON, for `JSON.stringify(result)`: what {@link print} prints (addresses as
   * strings, Go's field order and omissions), as a plain object.
   */
  toJSON(): unknown {
    return JSON.parse(marshal(this));
  }

  /** The value the Go-compatible encoder writes for this result (upstream's JSON form). */
  abstract [toGoJSON](): unknown;
}

interface RawListResult<I> {
  cniVersion?: string;
  interfaces?: I[];
  ips?: unknown[];
  routes?: unknown[];
  dns?: DNS;
}

/** How one version's result decodes: its Go package name and its own parts. */
export interface ListResultCodec<I, P> {
  /** Go's package of the types, `types040` or `types100` (named in type errors). */
  readonly pkg: string;
  readonly supportedVersions: readonly string[];
  readonly decoder: StructDecoder<RawListResult<I>>;
  readonly decodeIPConfig: (value: unknown) => P;
}

/** The struct schema of a result whose interfaces have the schema `interfaceField`. */
export function listResultSchema(pkg: string, interfaceField: FieldSchema) {
  return {
    fields: {
      cniVersion: { type: "string" },
      interfaces: { type: "array", items: interfaceField, goType: `[]*${pkg}.Interface` },
      ips: { type: "array", items: { type: "raw" }, goType: `[]*${pkg}.IPConfig` },
      routes: { type: "array", items: { type: "raw" }, goType: "[]*types.Route" },
      dns: dnsField,
    },
  } satisfies StructSchema;
}

/** The struct decoder of a result whose interfaces have the schema `interfaceField`. */
export function listResultDecoder<I>(
  pkg: string,
  interfaceField: FieldSchema,
): StructDecoder<RawListResult<I>> {
  return defineStruct<RawListResult<I>>("Result", listResultSchema(pkg, interfaceField));
}

/**
 * Upstream `NewResult`'s decoding of a parsed JSON value: the fields, or a type error, or
 * `ResultVersionMismatchError` when the version is not one the codec supports.
 */
export function decodeListResult<I, P>(
  value: unknown,
  codec: ListResultCodec<I, P>,
): ListResultFields<I, P> {
  const r = codec.decoder.decode(structValue(value, `${codec.pkg}.Result`));
  const fields: ListResultFields<I, P> = {
    cniVersion: r.cniVersion ?? "",
    interfaces: decodeList(r.interfaces, "interfaces", `${codec.pkg}.Interface`, (i) => ({
      ...(i as I),
      name: (i as { name?: string }).name ?? "",
    })),
    ips: decodeList(r.ips, "ips", `${codec.pkg}.IPConfig`, codec.decodeIPConfig),
    routes: decodeList(r.routes, "routes", "types.Route", decodeRoute),
    dns: r.dns ?? {},
  };
  if (!codec.supportedVersions.includes(fields.cniVersion)) {
    throw new ResultVersionMismatchError(codec.supportedVersions, fields.cniVersion);
  }
  return fields;
}

/**
 * Upstream `GetAsVersion`: `result` converted to `version`, the same object when the version
 * matches; an empty `cniVersion` is first set to the class's implemented version.
 */
export function resultAsVersion(
  result: Result & { cniVersion: string },
  implementedVersion: string,
  version: string,
): Result {
  if (result.cniVersion === "") result.cniVersion = implementedVersion;
  return convert(result, version);
}

/** Upstream `GetResult`: `result.getAsVersion(version)`, which must be an instance of `cls`. */
export function getResultAs<T>(
  result: Result,
  version: string,
  cls: abstract new (...args: never[]) => T,
): T {
  const converted = result.getAsVersion(version);
  if (!(converted instanceof cls)) throw new ConversionError("failed to convert result");
  return converted;
}

/**
 * The fields 0.4.0 and 1.x IP configurations share (address, interface, gateway), copied from
 * `ip` onto `out` in that key order (the order Go's struct encoder writes).
 */
export function copyIPConfigFields<T extends object>(
  ip: { address: IPNet; interface?: number; gateway?: Uint8Array },
  out: T,
): T & { address: IPNet; interface?: number; gateway?: Uint8Array } {
  const copy = out as T & { address: IPNet; interface?: number; gateway?: Uint8Array };
  copy.address = copyIPNet(ip.address);
  if (ip.interface !== undefined) copy.interface = ip.interface;
  if (ip.gateway) copy.gateway = copyIP(ip.gateway);
  return copy;
}
