/**
 * The JSON Schema the conflist linter checks against: the network configuration of CNI spec
 * 1.1.0 (SPEC.md, "Configuration format") and the capability arguments of CONVENTIONS.md
 * ("Well-known Capabilities"), draft-07.
 *
 * Two annotation keywords tell the linter how to report a failure of a subschema's own
 * keywords: `x-severity` (`"warning"`; an error when absent) and `x-message` (the text, instead
 * of ajv's). Rules with different severities or texts therefore sit in separate `allOf`
 * branches. The schema says "wrong" only where the spec says "must" or where Go libcni or the
 * plugins reject the value; what they accept but the spec discourages is a warning.
 *
 * This module is data only: the validator is generated from it ahead of time
 * (lint-validator.generated.ts), and the linter reads it to find a failed rule's annotations.
 */

/** A JSON Schema node, as far as this file uses it. */
export type SchemaNode = { readonly [keyword: string]: unknown };

/** A list of strings; `message` for the list and for an entry that is not a string. */
const strings = (message: string): SchemaNode => ({
  type: "array",
  items: { type: "string", "x-message": message },
  "x-message": message,
});

/** A key the spec reserves for the runtime: present in a file, it is a warning. */
const reserved = (message: string): SchemaNode => ({
  not: {},
  "x-severity": "warning",
  "x-message": message,
});

const port: SchemaNode = {
  type: "integer",
  minimum: 1,
  maximum: 65535,
  "x-message": "must be a port number (1-65535)",
};

/** Spec: "Must not contain characters disallowed in file paths (e.g. / or \\)". */
const pathSafe = "^(?!\\.\\.?$)[^/\\\\\\u0000]+$";

/**
 * The capability arguments of CONVENTIONS.md, by capability name, as plugins decode them
 * (`io.kubernetes.cri.pod-annotations` is containerd's, not in CONVENTIONS.md, and widely used).
 */
export const capabilityArgsSchema: Readonly<Record<string, SchemaNode>> = {
  portMappings: {
    type: "array",
    "x-message": "portMappings must be a list of port mappings",
    items: {
      type: "object",
      "x-message": "a port mapping must be an object",
      allOf: [
        {
          required: ["hostPort", "containerPort"],
          "x-message": "a port mapping needs hostPort and containerPort",
        },
      ],
      properties: {
        hostPort: port,
        containerPort: port,
        protocol: { type: "string", "x-message": "must be a string (tcp, udp or sctp)" },
        hostIP: { type: "string", "x-message": "must be a string (an IP address)" },
      },
    },
  },
  ipRanges: {
    type: "array",
    "x-message": "ipRanges must be a list of lists of ranges (host-local's ranges)",
    items: {
      type: "array",
      "x-message": "must be a list of ranges",
      items: {
        type: "object",
        "x-message": "a range must be an object",
        allOf: [{ required: ["subnet"], "x-message": "a range needs a subnet" }],
        properties: {
          subnet: { type: "string", "x-message": "must be a string (a CIDR)" },
          rangeStart: { type: "string", "x-message": "must be a string (an IP address)" },
          rangeEnd: { type: "string", "x-message": "must be a string (an IP address)" },
          gateway: { type: "string", "x-message": "must be a string (an IP address)" },
        },
      },
    },
  },
  bandwidth: {
    type: "object",
    "x-message": "bandwidth must be an object of rates and bursts",
    properties: Object.fromEntries(
      ["ingressRate", "ingressBurst", "egressRate", "egressBurst"].map((key) => [
        key,
        { type: "integer", minimum: 0, "x-message": "must be a non-negative integer (bits)" },
      ]),
    ),
  },
  dns: {
    type: "object",
    "x-message": "dns must be an object of servers, searches and options",
    properties: Object.fromEntries(
      ["servers", "searches", "options"].map((key) => [key, strings("must be a list of strings")]),
    ),
  },
  ips: strings("ips must be a list of strings (<ip>[/<prefix>])"),
  mac: { type: "string", "x-message": "mac must be a string (a MAC address)" },
  infinibandGUID: { type: "string", "x-message": "infinibandGUID must be a string (a GUID)" },
  deviceID: { type: "string", "x-message": "deviceID must be a string" },
  aliases: strings("aliases must be a list of strings"),
  cgroupPath: { type: "string", "x-message": "cgroupPath must be a string" },
  "io.kubernetes.cri.pod-annotations": {
    type: "object",
    additionalProperties: {
      type: "string",
      "x-message": "io.kubernetes.cri.pod-annotations must be an object of strings",
    },
    "x-message": "io.kubernetes.cri.pod-annotations must be an object of strings",
  },
};

/** The capability names the linter knows; any other is a warning. */
export const knownCapabilities: readonly string[] = Object.keys(capabilityArgsSchema);

/** An object whose keys outside `known` are warnings (`message` names what they are). */
const onlyKeys = (known: readonly string[], message: string): SchemaNode => ({
  properties: Object.fromEntries(known.map((key) => [key, true])),
  additionalProperties: false,
  "x-severity": "warning",
  "x-message": message,
});

/** A list-level flag: a bool; Go libcni also takes "true"/"false" in any case, a warning. */
const flag = (key: string): SchemaNode => ({
  allOf: [
    {
      anyOf: [{ type: "boolean" }, { type: "string", pattern: boolText }],
      "x-message": `${key} must be a boolean`,
    },
    {
      not: { type: "string", pattern: boolText },
      "x-severity": "warning",
      "x-message": `${key} is a string: the spec says a boolean (Go libcni reads "true"/"false" in any case, other runtimes may not)`,
    },
  ],
});
const boolText = "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$";

/** Keys Go's struct decoding sets in a plugin's `PluginConf` or that the spec names. */
export const pluginKeys: readonly string[] = [
  "type",
  "name",
  "cniVersion",
  "capabilities",
  "ipam",
  "dns",
  "args",
  "runtimeConfig",
  "prevResult",
];

const plugin: SchemaNode = {
  type: "object",
  "x-message": "a plugin must be an object",
  allOf: [
    { required: ["type"], "x-message": 'missing "type": every plugin names its executable' },
    {
      properties: {
        type: {
          allOf: [
            { type: "string", "x-message": "type must be a string" },
            { not: { const: "" }, "x-message": "type is empty" },
            {
              pattern: pathSafe,
              "x-message": "type must be a file name (no / or \\, not . or ..)",
            },
          ],
        },
        // A plugin's own name is no finding: the list's name replaces it on the plugin's stdin,
        // but upstream names the plugin by it in its errors (`plugin type="t" name="n"
        // failed`), and chained configs (aws-cni + cilium, multus delegates) set it on purpose.
        cniVersion: {
          not: {},
          "x-severity": "warning",
          "x-message": "a plugin's cniVersion is replaced by the list's version at run time",
        },
        capabilities: {
          allOf: [
            {
              type: ["object", "null"],
              additionalProperties: {
                type: ["boolean", "null"],
                "x-message": "a capability must be true or false",
              },
              "x-message": "capabilities must be an object of booleans",
            },
            onlyKeys(knownCapabilities, "unknown capability (not in the CNI conventions)"),
          ],
        },
        ipam: {
          type: ["object", "null"],
          "x-message": "ipam must be an object",
          properties: {
            type: {
              allOf: [
                { type: "string", "x-message": "ipam type must be a string" },
                {
                  pattern: pathSafe,
                  "x-message": "ipam type must be a file name (no / or \\, not . or ..)",
                },
              ],
            },
          },
        },
        dns: {
          type: ["object", "null"],
          "x-message": "dns must be an object",
          properties: {
            nameservers: strings("must be a list of strings"),
            domain: { type: "string", "x-message": "must be a string" },
            search: strings("must be a list of strings"),
            options: strings("must be a list of strings"),
          },
        },
        runtimeConfig: {
          type: "object",
          "x-message": "runtimeConfig must be an object",
          properties: capabilityArgsSchema,
        },
        prevResult: { type: ["object", "null"], "x-message": "prevResult must be an object" },
      },
    },
    {
      properties: {
        runtimeConfig: {
          allOf: [
            reserved(
              "runtimeConfig is reserved: the runtime writes it from the capabilities and replaces this one",
            ),
            onlyKeys(knownCapabilities, "unknown capability argument (not in the CNI conventions)"),
          ],
        },
        args: reserved("args is reserved: the runtime writes it at execution time"),
        prevResult: reserved("prevResult is set by the runtime from the previous plugin's result"),
      },
      patternProperties: {
        "^cni\\.dev/": reserved("keys starting with cni.dev/ are reserved for the runtime"),
      },
    },
  ],
};

/** The top-level keys of a network configuration list (spec 1.1.0). */
export const listKeys: readonly string[] = [
  "cniVersion",
  "cniVersions",
  "name",
  "disableCheck",
  "disableGC",
  "loadOnlyInlinedPlugins",
  "plugins",
];

/** A network configuration list (a conflist), spec 1.1.0. */
export const conflistSchema: SchemaNode = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  "x-message": "a network configuration list must be a JSON object",
  allOf: [
    { required: ["name"], "x-message": 'missing "name": the network name' },
    onlyKeys(listKeys, "unknown top-level key (not in the CNI spec)"),
    {
      properties: {
        cniVersion: { type: "string", "x-message": "cniVersion must be a string" },
        cniVersions: {
          type: "array",
          items: { type: "string", "x-message": "must be a string" },
          "x-message": "cniVersions must be a list of strings",
        },
        name: {
          allOf: [
            { type: "string", "x-message": "name must be a string" },
            {
              pattern: "^[a-zA-Z0-9][a-zA-Z0-9_.-]*$",
              "x-message":
                "name must start with a letter or digit, then letters, digits, _ . or - (spec)",
            },
          ],
        },
        disableCheck: flag("disableCheck"),
        disableGC: flag("disableGC"),
        loadOnlyInlinedPlugins: flag("loadOnlyInlinedPlugins"),
        plugins: {
          allOf: [
            { type: "array", "x-message": "plugins must be a list of plugin objects" },
            { minItems: 1, "x-message": "no plugins in list" },
            { items: plugin },
          ],
        },
      },
    },
  ],
};
