/**
 * A plugin's network configuration, as libcni reads it (upstream `types.PluginConf`, alias
 * `NetConf`): the well-known fields, decoded with Go's struct rules (src/encoding/struct.ts), so
 * that a Go runtime reading the same file accepts and rejects exactly the same inputs.
 */
import { defineStruct } from "../encoding/struct.js";
import { type DNS, dnsField } from "./dns.js";
import { type GCAttachment, gcAttachmentField } from "./gc.js";

/** A plugin's configuration: the fields libcni itself reads (upstream `types.PluginConf`). */
export interface PluginConf {
  /** `cniVersion`, "" when absent. */
  cniVersion: string;
  /** `name`, "" when absent. */
  name: string;
  /** `type`: the plugin executable's name, "" when absent. */
  type: string;
  /** `capabilities`: which runtime capabilities the plugin accepts (absent when not given). */
  capabilities?: Record<string, boolean>;
  /** `ipam`, when given. */
  ipam?: {
    /** The IPAM plugin's executable name, "" when absent. */
    type: string;
  };
  /** `dns`, when given. */
  dns?: DNS;
  /** `prevResult` as raw JSON (an object), when given. Parse it with `parsePrevResult`. */
  rawPrevResult?: Record<string, unknown>;
  /** `cni.dev/valid-attachments`: the attachments a GC must keep, when given. */
  validAttachments?: GCAttachment[];
}

const decoder = defineStruct<RawPluginConf>("types.PluginConf", {
  fields: {
    cniVersion: { type: "string" },
    name: { type: "string" },
    type: { type: "string" },
    capabilities: { type: "map", values: { type: "bool" } },
    ipam: {
      type: "struct",
      goName: "types.IPAM",
      struct: { fields: { type: { type: "string" } } },
    },
    dns: dnsField,
    prevResult: { type: "map", values: { type: "any" } },
    "cni.dev/valid-attachments": { type: "array", items: gcAttachmentField },
  },
});

/**
 * The decoder's output: the canonical JSON keys that were present and not null (a null inside
 * a slice or map is already the element's zero value, as Go stores it).
 */
type RawPluginConf = Partial<Pick<PluginConf, "cniVersion" | "name" | "type" | "capabilities">> & {
  ipam?: { type?: string };
  dns?: DNS;
  prevResult?: Record<string, unknown>;
  "cni.dev/valid-attachments"?: Partial<GCAttachment>[];
};

/** The DNS with its keys in the struct's order. */
function toDNS(raw: DNS): DNS {
  const keys = ["nameservers", "domain", "search", "options"] as const;
  return Object.fromEntries(keys.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]));
}

/**
 * Decodes a parsed JSON value into a PluginConf with Go's `json.Unmarshal` rules (`null` is the
 * zero configuration). Throws `UnmarshalTypeError`, with Go's message, for a wrong type.
 */
export function decodePluginConf(value: unknown): PluginConf {
  const raw = decoder.decode(value);
  const conf: PluginConf = {
    cniVersion: raw.cniVersion ?? "",
    name: raw.name ?? "",
    type: raw.type ?? "",
  };
  if (raw.capabilities !== undefined) conf.capabilities = raw.capabilities;
  if (raw.ipam !== undefined) conf.ipam = { type: raw.ipam.type ?? "" };
  if (raw.dns !== undefined) conf.dns = toDNS(raw.dns);
  if (raw.prevResult !== undefined) conf.rawPrevResult = raw.prevResult;
  const attachments = raw["cni.dev/valid-attachments"];
  if (attachments !== undefined) {
    conf.validAttachments = attachments.map((a) => ({
      containerID: a.containerID ?? "",
      ifname: a.ifname ?? "",
    }));
  }
  return conf;
}
