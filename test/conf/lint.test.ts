/**
 * lintNetworkList: each kind of finding with its JSON Pointer and severity, a clean conflist
 * with none, the stable order, and the two inputs (bytes, a parsed list).
 */
import { describe, expect, it } from "vitest";
import {
  type LintFinding,
  lintNetworkList,
  type NetworkConfigList,
  networkConfFromBytes,
} from "../../src/conf/index.js";

/** A valid 1.1.0 list of one plugin, `extra` merged into the list and `plugin` into the plugin. */
function conflist(extra: Record<string, unknown> = {}, plugin: Record<string, unknown> = {}) {
  return JSON.stringify({
    cniVersion: "1.1.0",
    name: "dbnet",
    plugins: [{ type: "bridge", ...plugin }],
    ...extra,
  });
}

const at = (findings: LintFinding[]) => findings.map((f) => f.pointer);

/** The spec's example configuration (SPEC.md, "Example configuration"), comments removed. */
const specExample = JSON.stringify({
  cniVersion: "1.1.0",
  cniVersions: ["0.3.1", "0.4.0", "1.0.0", "1.1.0"],
  name: "dbnet",
  plugins: [
    {
      type: "bridge",
      bridge: "cni0",
      keyA: ["some more", "plugin specific", "configuration"],
      ipam: {
        type: "host-local",
        subnet: "10.1.0.0/16",
        gateway: "10.1.0.1",
        routes: [{ dst: "0.0.0.0/0" }],
      },
      dns: { nameservers: ["10.1.0.1"] },
    },
    { type: "tuning", capabilities: { mac: true }, sysctl: { "net.core.somaxconn": "500" } },
    { type: "portmap", capabilities: { portMappings: true } },
  ],
});

describe("a clean conflist", () => {
  it("the spec's example gives no findings, as bytes, as a string and as a parsed list", () => {
    const none = { errors: [], warnings: [] };
    expect(lintNetworkList(specExample)).toEqual(none);
    expect(lintNetworkList(new TextEncoder().encode(specExample))).toEqual(none);
    expect(lintNetworkList(networkConfFromBytes(specExample))).toEqual(none);
  });

  it("plugin-specific keys, false capabilities, flags and every well-known capability are clean", () => {
    const all = Object.fromEntries(
      [
        "portMappings",
        "ipRanges",
        "bandwidth",
        "dns",
        "ips",
        "mac",
        "infinibandGUID",
        "deviceID",
        "aliases",
        "cgroupPath",
        "io.kubernetes.cri.pod-annotations",
      ].map((c, i) => [c, i % 2 === 0]),
    );
    const text = conflist(
      { disableCheck: true, disableGC: false, loadOnlyInlinedPlugins: true },
      { capabilities: all, mtu: 1500, "x/y": { nested: [1, null] } },
    );
    expect(lintNetworkList(text)).toEqual({ errors: [], warnings: [] });
  });

  it("the same plugin type twice is not a finding (the spec does not forbid it)", () => {
    const text = JSON.stringify({
      cniVersion: "1.0.0",
      name: "n",
      plugins: [{ type: "bridge" }, { type: "bridge" }],
    });
    expect(lintNetworkList(text)).toEqual({ errors: [], warnings: [] });
  });
});

describe("top-level keys", () => {
  it('`plugin` (a typo of "plugins") is an error: the list runs no plugin', () => {
    for (const typo of ["plugin", "Plugins", "plugns"]) {
      const text = JSON.stringify({ cniVersion: "1.0.0", name: "n", [typo]: [{ type: "bridge" }] });
      const { errors, warnings } = lintNetworkList(text);
      expect(errors, typo).toEqual([
        {
          pointer: `/${typo}`,
          message: 'the list has no "plugins" (did you mean "plugins"?): its plugins are never run',
          severity: "error",
        },
      ]);
      expect(warnings, typo).toEqual([]);
    }
    const text = JSON.stringify({ cniVersion: "1.0.0", name: "n", plugin: [{ type: "bridge" }] });
    // Parsing is untouched: upstream accepts the list, with no plugins.
    expect(networkConfFromBytes(text).plugins).toEqual([]);
  });

  it("a key in another case is unknown at the top level (Go reads the list by exact keys)", () => {
    const { errors, warnings } = lintNetworkList(
      JSON.stringify({ cniVersion: "1.0.0", Name: "n", plugins: [{ type: "b" }] }),
    );
    expect(errors).toEqual([
      { pointer: "/name", message: 'missing "name": the network name', severity: "error" },
    ]);
    expect(warnings[0]).toEqual({
      pointer: "/Name",
      message: 'unknown top-level key (not in the CNI spec) (did you mean "name"?)',
      severity: "warning",
    });
  });

  it("escapes pointers as RFC 6901 says: ~ as ~0, / as ~1", () => {
    const { warnings } = lintNetworkList(conflist({ "a/b~c": 1, "": 2 }));
    expect(at(warnings)).toEqual(["/", "/a~1b~0c"]);
  });

  it("a document that is not an object, or not JSON, gives one error at the root", () => {
    expect(lintNetworkList("[]").errors).toEqual([
      {
        pointer: "",
        message: "a network configuration list must be a JSON object",
        severity: "error",
      },
    ]);
    expect(lintNetworkList('{"name":').errors).toEqual([
      {
        pointer: "",
        message: "cannot be decoded: unexpected end of JSON input (line 1, column 8)",
        severity: "error",
      },
    ]);
  });
});

describe("name", () => {
  it.each([
    ["../x"],
    ["a/b"],
    [""],
    ["-lead"],
    ["trailing\n"],
  ])("%j is an error at /name: not the spec's [a-zA-Z0-9][a-zA-Z0-9_.-]*", (name) => {
    const { errors } = lintNetworkList(conflist({ name }));
    expect(errors).toEqual([
      {
        pointer: "/name",
        message: "name must start with a letter or digit, then letters, digits, _ . or - (spec)",
        severity: "error",
      },
    ]);
  });

  it("missing or not a string: an error", () => {
    expect(lintNetworkList('{"cniVersion":"1.0.0","plugins":[{"type":"b"}]}').errors).toEqual([
      { pointer: "/name", message: 'missing "name": the network name', severity: "error" },
    ]);
    expect(at(lintNetworkList(conflist({ name: 7 })).errors)).toEqual(["/name"]);
  });
});

describe("versions", () => {
  const errorsAndWarnings = (extra: Record<string, unknown>) => {
    const { errors, warnings } = lintNetworkList(conflist(extra));
    return [...errors, ...warnings].map((f) => `${f.severity} ${f.pointer}: ${f.message}`);
  };

  it("cniVersion not in version.all: an error (plugins would refuse it)", () => {
    expect(errorsAndWarnings({ cniVersion: "2.0.0" })).toEqual([
      'error /cniVersion: unsupported version "2.0.0": the list would run with it, and plugins accept only 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0',
    ]);
    expect(errorsAndWarnings({ cniVersion: "1.0" })[0]).toMatch(/^error \/cniVersion: unsupported/);
  });

  it("cniVersion that is not a version: an error with the parser's reason", () => {
    expect(errorsAndWarnings({ cniVersion: "one" })).toEqual([
      'error /cniVersion: "one" is not a version: failed to convert major version part "one": strconv.Atoi: parsing "one": invalid syntax',
    ]);
  });

  it("no cniVersion: a warning (plugins read the configuration as 0.1.0)", () => {
    expect(errorsAndWarnings({ cniVersion: "" })).toEqual([
      "warning /cniVersion: no cniVersion: plugins read the configuration as version 0.1.0",
    ]);
  });

  it("cniVersions: unknown entries are warnings, broken ones errors, each at its index", () => {
    expect(errorsAndWarnings({ cniVersions: ["1.0.0", "9.9.9"] })).toEqual([
      'warning /cniVersions/1: "9.9.9" is not a CNI version this library knows (0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0): it is never selected when newer than 1.1.0',
    ]);
    expect(errorsAndWarnings({ cniVersions: ["1.0.0", "1.x"] })).toEqual([
      'error /cniVersions/1: "1.x" is not a version: failed to convert minor version part "x": strconv.Atoi: parsing "x": invalid syntax',
    ]);
    expect(errorsAndWarnings({ cniVersions: ["1.0.0", 1] })).toEqual([
      "error /cniVersions/1: must be a string",
    ]);
    expect(errorsAndWarnings({ cniVersions: "1.0.0" })).toEqual([
      "error /cniVersions: cniVersions must be a list of strings",
    ]);
  });

  it("an unknown version that the selection would pick is an error where it is written", () => {
    expect(errorsAndWarnings({ cniVersion: "", cniVersions: ["0.9.0"] })).toEqual([
      'error /cniVersions/0: unsupported version "0.9.0": the list would run with it, and plugins accept only 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0',
      'warning /cniVersions/0: "0.9.0" is not a CNI version this library knows (0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0): it is never selected when newer than 1.1.0',
    ]);
  });

  it("a newer cniVersion beside cniVersions: a warning, the list runs as the selected one", () => {
    expect(errorsAndWarnings({ cniVersion: "1.2.0", cniVersions: ["1.0.0"] })).toEqual([
      'warning /cniVersion: cniVersion "1.2.0" is not a CNI version this library knows: the list runs as "1.0.0", from cniVersions',
    ]);
  });
});

describe("list flags", () => {
  it.each([
    "disableCheck",
    "disableGC",
    "loadOnlyInlinedPlugins",
  ])("%s: a number, null or another word is an error; a string true/false a warning", (key) => {
    for (const bad of [1, null, "yes", []]) {
      expect(lintNetworkList(conflist({ [key]: bad })).errors).toEqual([
        { pointer: `/${key}`, message: `${key} must be a boolean`, severity: "error" },
      ]);
    }
    const { errors, warnings } = lintNetworkList(conflist({ [key]: "FALSE" }));
    expect(errors).toEqual([]);
    expect(at(warnings)).toEqual([`/${key}`]);
  });
});

describe("plugins", () => {
  it("empty, not a list, an entry not an object: errors", () => {
    expect(lintNetworkList(conflist({ plugins: [] })).errors).toEqual([
      { pointer: "/plugins", message: "no plugins in list", severity: "error" },
    ]);
    expect(lintNetworkList(conflist({ plugins: { type: "b" } })).errors).toEqual([
      {
        pointer: "/plugins",
        message: "plugins must be a list of plugin objects",
        severity: "error",
      },
    ]);
    expect(lintNetworkList(conflist({ plugins: [{ type: "b" }, "bridge"] })).errors).toEqual([
      { pointer: "/plugins/1", message: "a plugin must be an object", severity: "error" },
    ]);
  });

  it("missing with loadOnlyInlinedPlugins true: an error (parsing fails too)", () => {
    const text = '{"cniVersion":"1.0.0","name":"n","loadOnlyInlinedPlugins":true}';
    expect(lintNetworkList(text).errors).toEqual([
      {
        pointer: "/plugins",
        message: 'loadOnlyInlinedPlugins is true, and no "plugins" key',
        severity: "error",
      },
    ]);
    expect(() => networkConfFromBytes(text)).toThrow();
  });

  it("a plugin without type, with an empty one, or one that is not a file name: errors", () => {
    const lintPlugin = (plugin: Record<string, unknown>) =>
      lintNetworkList(JSON.stringify({ cniVersion: "1.0.0", name: "n", plugins: [plugin] })).errors;
    expect(lintPlugin({ mtu: 1 })).toEqual([
      {
        pointer: "/plugins/0/type",
        message: 'missing "type": every plugin names its executable',
        severity: "error",
      },
    ]);
    expect(lintPlugin({ type: "" })[0].message).toBe("type is empty");
    for (const type of ["../bridge", "a\\b", ".", ".."]) {
      expect(lintPlugin({ type })).toEqual([
        {
          pointer: "/plugins/0/type",
          message: "type must be a file name (no / or \\, not . or ..)",
          severity: "error",
        },
      ]);
    }
    expect(lintPlugin({ type: 1 })[0].message).toBe("type must be a string");
    expect(at(lintPlugin({ type: "b", ipam: { type: "../host-local" } }))).toEqual([
      "/plugins/0/ipam/type",
    ]);
    expect(at(lintPlugin({ type: "b", ipam: "host-local" }))).toEqual(["/plugins/0/ipam"]);
    expect(at(lintPlugin({ type: "b", dns: { nameservers: "8.8.8.8", domain: 1 } }))).toEqual([
      "/plugins/0/dns/domain",
      "/plugins/0/dns/nameservers",
    ]);
  });

  it("reserved keys (runtimeConfig, args, prevResult, cni.dev/*) and a plugin's cniVersion: warnings; its name is none", () => {
    const { errors, warnings } = lintNetworkList(
      conflist(
        {},
        {
          name: "x",
          cniVersion: "0.4.0",
          args: {},
          prevResult: {},
          "cni.dev/valid-attachments": [],
          runtimeConfig: {},
        },
      ),
    );
    expect(errors).toEqual([]);
    expect(at(warnings)).toEqual([
      "/plugins/0/args",
      "/plugins/0/cni.dev~1valid-attachments",
      "/plugins/0/cniVersion",
      "/plugins/0/prevResult",
      "/plugins/0/runtimeConfig",
    ]);
  });

  it("a key in another case (Type, Capabilities): a warning, and its value is checked where the file has it", () => {
    const { errors, warnings } = lintNetworkList(
      conflist({}, { type: undefined, Type: "bridge", Capabilities: { portMapping: "yes" } }),
    );
    expect(errors).toEqual([
      {
        pointer: "/plugins/0/Capabilities/portMapping",
        message: "a capability must be true or false",
        severity: "error",
      },
    ]);
    expect(warnings.map((w) => `${w.pointer}: ${w.message}`)).toEqual([
      '/plugins/0/Capabilities: "Capabilities" is read as "capabilities" by Go libcni (case-insensitive), but the spec\'s key is "capabilities"',
      '/plugins/0/Capabilities/portMapping: unknown capability (not in the CNI conventions) (did you mean "portMappings"?)',
      '/plugins/0/Type: "Type" is read as "type" by Go libcni (case-insensitive), but the spec\'s key is "type"',
    ]);
  });
});

describe("capabilities", () => {
  it("an unknown capability is a warning at its key, with a suggestion when it looks like a typo", () => {
    const { errors, warnings } = lintNetworkList(
      conflist({}, { capabilities: { portMapping: true, custom: true } }),
    );
    expect(errors).toEqual([]);
    expect(warnings).toEqual([
      {
        pointer: "/plugins/0/capabilities/custom",
        message: "unknown capability (not in the CNI conventions)",
        severity: "warning",
      },
      {
        pointer: "/plugins/0/capabilities/portMapping",
        message: 'unknown capability (not in the CNI conventions) (did you mean "portMappings"?)',
        severity: "warning",
      },
    ]);
  });

  it("capabilities not an object of booleans: an error", () => {
    expect(at(lintNetworkList(conflist({}, { capabilities: ["mac"] })).errors)).toEqual([
      "/plugins/0/capabilities",
    ]);
    expect(at(lintNetworkList(conflist({}, { capabilities: { mac: 1 } })).errors)).toEqual([
      "/plugins/0/capabilities/mac",
    ]);
  });
});

describe("capability args in runtimeConfig", () => {
  const argErrors = (runtimeConfig: Record<string, unknown>) =>
    lintNetworkList(conflist({}, { runtimeConfig })).errors.map(
      (f) => `${f.pointer}: ${f.message}`,
    );
  const base = "/plugins/0/runtimeConfig";

  it.each<[string, unknown, string[]]>([
    [
      "portMappings",
      { hostPort: 80 },
      [`${base}/portMappings: portMappings must be a list of port mappings`],
    ],
    [
      "portMappings",
      [
        { hostPort: "8080", containerPort: 80 },
        { containerPort: 70000, protocol: 6 },
      ],
      [
        `${base}/portMappings/0/hostPort: must be a port number (1-65535)`,
        `${base}/portMappings/1/containerPort: must be a port number (1-65535)`,
        `${base}/portMappings/1/hostPort: a port mapping needs hostPort and containerPort`,
        `${base}/portMappings/1/protocol: must be a string (tcp, udp or sctp)`,
      ],
    ],
    ["ipRanges", [{ subnet: "10.0.0.0/24" }], [`${base}/ipRanges/0: must be a list of ranges`]],
    [
      "ipRanges",
      [[{ gateway: "10.0.0.1" }]],
      [`${base}/ipRanges/0/0/subnet: a range needs a subnet`],
    ],
    [
      "bandwidth",
      { ingressRate: -1, egressBurst: 1.5 },
      [
        `${base}/bandwidth/egressBurst: must be a non-negative integer (bits)`,
        `${base}/bandwidth/ingressRate: must be a non-negative integer (bits)`,
      ],
    ],
    ["dns", { servers: "8.8.8.8" }, [`${base}/dns/servers: must be a list of strings`]],
    ["ips", "10.0.0.2/24", [`${base}/ips: ips must be a list of strings (<ip>[/<prefix>])`]],
    ["mac", 12, [`${base}/mac: mac must be a string (a MAC address)`]],
    ["infinibandGUID", [], [`${base}/infinibandGUID: infinibandGUID must be a string (a GUID)`]],
    ["deviceID", 4, [`${base}/deviceID: deviceID must be a string`]],
    ["aliases", ["a", 1], [`${base}/aliases/1: aliases must be a list of strings`]],
    ["cgroupPath", null, [`${base}/cgroupPath: cgroupPath must be a string`]],
    [
      "io.kubernetes.cri.pod-annotations",
      { a: 1 },
      [
        `${base}/io.kubernetes.cri.pod-annotations/a: io.kubernetes.cri.pod-annotations must be an object of strings`,
      ],
    ],
  ])("%s = %j: errors at the value's pointer", (name, value, expected) => {
    expect(argErrors({ [name]: value })).toEqual(expected);
  });

  it("well-shaped args give no error (only the reserved-key warning), unknown ones a warning", () => {
    const { errors, warnings } = lintNetworkList(
      conflist(
        {},
        {
          runtimeConfig: {
            portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp", hostIP: "::1" }],
            ipRanges: [[{ subnet: "10.1.2.0/24", rangeStart: "10.1.2.3", gateway: "10.1.2.254" }]],
            bandwidth: {
              ingressRate: 2048,
              ingressBurst: 1600,
              egressRate: 4096,
              egressBurst: 1600,
            },
            dns: { searches: ["corp"], servers: ["8.8.8.8"] },
            ips: ["192.168.0.1", "3ffe:ffff:0:01ff::1/64"],
            mac: "c2:11:22:33:44:55",
            portMapping: [],
          },
        },
      ),
    );
    expect(errors).toEqual([]);
    expect(warnings.map((w) => w.pointer)).toEqual([
      "/plugins/0/runtimeConfig",
      "/plugins/0/runtimeConfig/portMapping",
    ]);
    expect(warnings[1].message).toBe(
      'unknown capability argument (not in the CNI conventions) (did you mean "portMappings"?)',
    );
  });
});

describe("order and inputs", () => {
  it("findings come in document order (indices by number), then by message", () => {
    const plugins = Array.from({ length: 12 }, (_, i) => ({
      type: "b",
      capabilities: { [`c${i}`]: true },
    }));
    const { warnings } = lintNetworkList(
      JSON.stringify({ zz: 1, plugins, cniVersion: "1.0.0", name: "n", aa: 1 }),
    );
    expect(at(warnings)).toEqual([
      "/aa",
      ...plugins.map((_, i) => `/plugins/${i}/capabilities/c${i}`),
      "/zz",
    ]);
    // The same input gives the same result, every time.
    expect(
      lintNetworkList(JSON.stringify({ zz: 1, plugins, cniVersion: "1.0.0", name: "n", aa: 1 })),
    ).toEqual(
      lintNetworkList(JSON.stringify({ aa: 1, name: "n", cniVersion: "1.0.0", plugins, zz: 1 })),
    );
  });

  it("a parsed list: the drop-in plugins it gained are linted as /plugins/<index in list.plugins>", () => {
    const list = networkConfFromBytes(conflist());
    const dropIn = networkConfFromBytes(
      JSON.stringify({ name: "x", plugins: [{ type: "tuning", capabilities: { macc: true } }] }),
    ).plugins[0];
    const withDropIn: NetworkConfigList = { ...list, plugins: [...list.plugins, dropIn] };
    expect(lintNetworkList(withDropIn).warnings).toEqual([
      {
        pointer: "/plugins/1/capabilities/macc",
        message: 'unknown capability (not in the CNI conventions) (did you mean "mac"?)',
        severity: "warning",
      },
    ]);
  });

  it("a parsed list with no plugins at all is an error: ADD would run nothing", () => {
    const list = networkConfFromBytes('{"cniVersion":"1.0.0","name":"n"}');
    expect(lintNetworkList(list).errors).toEqual([
      {
        pointer: "/plugins",
        message: "the network has no plugins: ADD would run nothing and cache an empty result",
        severity: "error",
      },
    ]);
  });

  it("every finding is in the list its severity names", () => {
    const { errors, warnings } = lintNetworkList(
      conflist({ plugin: 1, cniVersion: "2" }, { capabilities: { x: 1 } }),
    );
    expect(errors.length).toBeGreaterThan(0);
    expect(warnings.length).toBeGreaterThan(0);
    expect(errors.every((f) => f.severity === "error")).toBe(true);
    expect(warnings.every((f) => f.severity === "warning")).toBe(true);
  });
});
