// Unit tests of request building, error texts and CNIConfig's defaults, with a FakeExec (no
// plugin executables): the stdin of each call, the env, the cache directory chosen.
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildOneConfig, injectRuntimeConfig, StdinTemplate } from "../../src/api/build-config.js";
import { pluginChainError, pluginDescription } from "../../src/api/errors.js";
import {
  CacheDir,
  CNIConfig,
  newCNIConfig,
  newCNIConfigWithCacheDir,
} from "../../src/api/index.js";
import { MultiError, WrappedError } from "../../src/errors/index.js";
import { utf8Decode } from "../../src/internal/bytes.js";
import { goQuote } from "../../src/internal/go-quote.js";
import { FakeExec } from "../../src/invoke/index.js";
import { createResult } from "../../src/types/index.js";
import { confList, failure, pluginConf } from "./helpers.js";

const text = (b: Uint8Array): string => utf8Decode(b);

describe("buildOneConfig / injectRuntimeConfig", () => {
  const conf = pluginConf(
    '{"type":"t","name":"mine","cniVersion":"0.1.0","z":"<&>","capabilities":{"b":true,"a":true,"off":false,"__proto__":true}}',
  );

  it("sets the list's name and cniVersion over the plugin's, keys sorted, HTML-escaped as Go", () => {
    const out = buildOneConfig("net", "1.1.0", conf, undefined, undefined);
    expect(text(out.bytes)).toBe(
      '{"capabilities":{"__proto__":true,"a":true,"b":true,"off":false},"cniVersion":"1.1.0","name":"net","type":"t","z":"\\u003c\\u0026\\u003e"}',
    );
    expect(out.network.name).toBe("net");
  });

  it("passes only true capabilities present in capabilityArgs, null as null, __proto__ as a key", () => {
    const capabilityArgs = JSON.parse(
      '{"a":{"y":1,"x":2},"off":1,"__proto__":[1],"other":3,"b":null}',
    );
    const out = buildOneConfig("net", "1.1.0", conf, undefined, {
      containerID: "c",
      netNS: "",
      ifName: "e",
      capabilityArgs,
    });
    // "__proto__" is an ordinary key to Go: declared true and present, so it is passed.
    expect(text(out.bytes)).toContain(
      '"runtimeConfig":{"__proto__":[1],"a":{"x":2,"y":1},"b":null}',
    );
  });

  it("builds runtimeConfig as a map, so a capability named __proto__ is an ordinary key", () => {
    // The network is patched by hand: the struct decoder drops a "__proto__" map key.
    const withProto = {
      ...conf,
      network: { ...conf.network, capabilities: JSON.parse('{"__proto__":true}') },
    };
    const out = injectRuntimeConfig(withProto, {
      containerID: "c",
      netNS: "",
      ifName: "e",
      capabilityArgs: JSON.parse('{"__proto__":[1]}'),
    });
    expect(text(out.bytes)).toContain('"runtimeConfig":{"__proto__":[1]}');
  });

  it("treats an undefined capability value as absent", () => {
    const out = injectRuntimeConfig(conf, {
      containerID: "c",
      netNS: "",
      ifName: "e",
      capabilityArgs: { a: undefined },
    });
    expect(out).toBe(conf);
  });

  it("adds a prevResult with the result's own encoding (1.x sorted, empty dns dropped)", () => {
    const prev = createResult(
      '{"cniVersion":"1.0.0","ips":[{"gateway":"10.0.0.1","address":"10.0.0.2/24"}],"dns":{}}',
    );
    const out = buildOneConfig("net", "1.0.0", pluginConf('{"type":"t"}'), prev, undefined);
    expect(text(out.bytes)).toBe(
      '{"cniVersion":"1.0.0","name":"net","prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/24","gateway":"10.0.0.1"}]},"type":"t"}',
    );
  });

  it("never injects args, and keeps every unknown field", () => {
    // Keys a Go struct field takes (matched case-insensitively) are not unknown.
    const known = [
      "cniversion",
      "name",
      "type",
      "capabilities",
      "ipam",
      "dns",
      "prevresult",
      "cni.dev/valid-attachments",
    ];
    const unknownKey = fc.string({ minLength: 1 }).filter((k) => !known.includes(k.toLowerCase()));
    fc.assert(
      fc.property(fc.dictionary(unknownKey, fc.jsonValue(), { maxKeys: 5 }), (extra) => {
        const out = buildOneConfig(
          "n",
          "1.1.0",
          pluginConf(JSON.stringify({ ...extra, type: "t" })),
          undefined,
          {
            containerID: "c",
            netNS: "",
            ifName: "e",
            args: [["K", "V"]],
          },
        );
        const parsed = JSON.parse(text(out.bytes));
        for (const key of Object.keys(extra)) expect(Object.hasOwn(parsed, key)).toBe(true);
        expect(text(out.bytes)).not.toContain('"args"');
      }),
      { numRuns: 300 },
    );
  });
});

describe("StdinTemplate: a configuration prepared once, each stdin encoded once", () => {
  const rt = (capabilityArgs?: Record<string, unknown>) => ({
    containerID: "c",
    netNS: "/ns",
    ifName: "eth0",
    capabilityArgs,
  });
  const outcome = (f: () => Uint8Array): string => {
    try {
      return `ok ${text(f())}`;
    } catch (error) {
      return `${(error as Error).constructor.name}: ${(error as Error).message}`;
    }
  };
  const results = [
    undefined,
    createResult('{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.0.0.2/24"}]}'),
    createResult(
      '{"cniVersion":"1.0.0","interfaces":[{"name":"e","mac":"m"}],"ips":[{"address":"10.0.0.2/24","interface":0}],"dns":{"nameservers":["1.1.1.1"]}}',
    ),
    createResult('{"cniVersion":"0.2.0","ip4":{"ip":"10.0.0.2/24"}}'),
  ];
  const caps = [undefined, { a: { z: 1, y: [2, { c: 1, b: 2 }] } }, { b: 1e21, a: "<x>" }];
  const conf = (json: string) => pluginConf(json);

  it("writes upstream's two steps' bytes: struct-ordered and map-form prevResults, runtimeConfig", () => {
    const configs = [
      '{"type":"t","name":"n","cniVersion":"0.1.0","capabilities":{"a":true,"b":true},"z":{"y":1e400000000000000000000000000000,"x":"\ud800"}}'.replace(
        "1e400000000000000000000000000000",
        "1.5",
      ),
      '{"type":"t","capabilities":{"a":true},"runtimeConfig":{"old":1},"prevResult":{"x":1},"__proto__":{"b":2,"a":1}}',
      '{"type":"t","Name":"other","CNIVERSION":"0.3.1","n":12345678901234567890,"f":1e-7}',
    ];
    for (const json of configs) {
      const net = conf(json);
      const template = new StdinTemplate(net);
      expect(template.prepared).toBe(true);
      for (const prev of results) {
        for (const capabilityArgs of caps) {
          for (const version of ["0.4.0", "1.1.0"]) {
            const want = outcome(
              () => buildOneConfig("net", version, net, prev, rt(capabilityArgs)).bytes,
            );
            expect(outcome(() => template.bytes("net", version, prev, rt(capabilityArgs)))).toBe(
              want,
            );
          }
        }
      }
    }
  });

  it("writes the same bytes as upstream's steps for any configuration (property)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          // The keys a call injects, which a configuration may hold too, among any others.
          fc.oneof(
            fc.string({ maxLength: 6 }),
            fc.constantFrom("name", "cniVersion", "prevResult", "runtimeConfig"),
          ),
          fc.jsonValue({ maxDepth: 3 }),
          { maxKeys: 6 },
        ),
        fc.constantFrom(...results),
        fc.constantFrom(...caps),
        (extra, prev, capabilityArgs) => {
          let net: ReturnType<typeof pluginConf>;
          try {
            net = conf(JSON.stringify({ ...extra, type: "t", capabilities: { a: true, b: true } }));
          } catch {
            return; // not a configuration: nothing to build
          }
          const want = outcome(
            () => buildOneConfig("n", "1.0.0", net, prev, rt(capabilityArgs)).bytes,
          );
          const got = outcome(() =>
            new StdinTemplate(net).bytes("n", "1.0.0", prev, rt(capabilityArgs)),
          );
          expect(got).toBe(want);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("takes upstream's steps, for their errors, when the bytes are not the configuration's", () => {
    const handBuilt = [
      { network: conf('{"type":"t"}').network, bytes: new TextEncoder().encode('{"name":"n"}') },
      {
        network: conf('{"type":"t"}').network,
        bytes: new TextEncoder().encode('{"type":"t","dns":5}'),
      },
      { network: conf('{"type":"t"}').network, bytes: new TextEncoder().encode("null") },
      { network: conf('{"type":"t"}').network, bytes: new TextEncoder().encode("[1]") },
      // Loads ("Type" is decoded last), but upstream's step writes "type" last: missing 'type'.
      conf('{"type":"","Type":"t"}'),
    ];
    for (const net of handBuilt) {
      const template = new StdinTemplate(net);
      expect(template.prepared).toBe(false);
      expect(template.versionOfStdin("1.0.0")).toBeUndefined();
      const want = outcome(() => buildOneConfig("net", "1.0.0", net, results[2], rt()).bytes);
      expect(want).not.toMatch(/^ok/);
      expect(outcome(() => template.bytes("net", "1.0.0", results[2], rt()))).toBe(want);
    }
  });

  it("knows the stdin's cniVersion unless another key folds to it", () => {
    expect(
      new StdinTemplate(conf('{"type":"t","cniVersion":"0.3.1"}')).versionOfStdin("1.0.0"),
    ).toBe("1.0.0");
    expect(
      new StdinTemplate(conf('{"type":"t","cniversion":"0.3.1"}')).versionOfStdin("1.0.0"),
    ).toBeUndefined();
  });

  it("fails as upstream's steps for a prevResult or capability Go cannot encode", () => {
    const net = conf('{"type":"t","capabilities":{"a":true}}');
    const bad = createResult('{"cniVersion":"1.0.0","interfaces":[{"name":"e"}]}');
    (bad as unknown as { interfaces: { mtu: number }[] }).interfaces[0].mtu =
      Number.POSITIVE_INFINITY;
    for (const [prev, capabilityArgs] of [
      [bad, undefined],
      [bad, { a: 1 }],
      [results[2], { a: Number.NaN }],
    ] as const) {
      const want = outcome(() => buildOneConfig("n", "1.0.0", net, prev, rt(capabilityArgs)).bytes);
      expect(want).not.toMatch(/^ok/);
      expect(
        outcome(() => new StdinTemplate(net).bytes("n", "1.0.0", prev, rt(capabilityArgs))),
      ).toBe(want);
    }
  });
});

describe("error texts", () => {
  it("describes a plugin as upstream's pluginDescription", () => {
    expect(pluginDescription(undefined)).toBe("<missing>");
    expect(pluginDescription(pluginConf('{"type":"noop"}').network)).toBe('type="noop"');
    expect(pluginDescription(pluginConf('{"type":"a\\"b","name":"n\\tx"}').network)).toBe(
      'type="a\\"b" name="n\\tx"',
    );
  });

  it("wraps as Go's %w: message prefixed, cause kept", () => {
    const inner = new Error("inner");
    const e = pluginChainError("delete", pluginConf('{"type":"x","name":"y"}').network, inner);
    expect(e.message).toBe('plugin type="x" name="y" failed (delete): inner');
    expect(e.cause).toBe(inner);
    expect(new WrappedError("ctx", "plain").message).toBe("ctx: plain");
    expect(new MultiError([new Error("a"), new Error("b")], "lines").message).toBe("a\nb");
    expect(new MultiError([new Error("a"), new Error("b")], "list").message).toBe("[a b]");
  });

  it.each([
    ["plain", '"plain"'],
    ['q"b\\s', '"q\\"b\\\\s"'],
    ["\x07\b\f\n\r\t\v", '"\\a\\b\\f\\n\\r\\t\\v"'],
    ["\x00\x1b\x7f", '"\\x00\\x1b\\x7f"'],
    ["é ü 日本", '"é ü 日本"'],
    ["\u00a0\u2028\ufeff", '"\\u00a0\\u2028\\ufeff"'],
    ["\u{1f600}\u{e0001}", '"\u{1f600}\\U000e0001"'],
    ["\ud800", '"\ufffd"'],
  ])("quotes %j as Go's strconv.Quote", (input, expected) => {
    expect(goQuote(input)).toBe(expected);
  });
});

describe("CNIConfig with a FakeExec", () => {
  let dir: string;
  let exec: FakeExec;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "libcni-api-fake-"));
    exec = new FakeExec();
    exec.findInPathCall.returns.path = "/fake/plugin";
    exec.execPluginCall.returns.resultBytes = '{"cniVersion":"1.1.0"}';
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const list = () => confList('{"name":"n","cniVersion":"1.1.0","plugins":[{"type":"p"}]}');
  const rt = {
    containerID: "c",
    netNS: "/ns",
    ifName: "eth0",
    args: [
      ["A", "1"],
      ["B", "2"],
    ] as [string, string][],
  };

  it("defaults to upstream's cache directory", () => {
    expect(CacheDir).toBe("/var/lib/cni");
    expect(new CNIConfig().cacheDir).toBe("");
    expect(new CNIConfig().path).toEqual([]);
  });

  it("uses the deprecated rt.cacheDir when the config has none, and its own before that", async () => {
    await newCNIConfig(["/p"], exec).addNetworkList(list(), { ...rt, cacheDir: join(dir, "rt") });
    expect(readdirSync(join(dir, "rt", "results"))).toEqual(["n-c-eth0"]);
    await newCNIConfigWithCacheDir(["/p"], join(dir, "own"), exec).addNetworkList(list(), {
      ...rt,
      cacheDir: join(dir, "ignored"),
    });
    expect(readdirSync(dir).sort()).toEqual(["own", "rt"]);
  });

  it("passes the CNI_* environment of upstream's args, and the path list to findInPath", async () => {
    const cni = new CNIConfig({ path: ["/a", "/b"], cacheDir: dir, exec });
    await cni.addNetworkList(list(), rt);
    expect(exec.findInPathCall.received).toEqual({ plugin: "p", paths: ["/a", "/b"] });
    const env = exec.execPluginCall.received.environ ?? [];
    expect(env.slice(-6)).toEqual([
      "CNI_COMMAND=ADD",
      "CNI_CONTAINERID=c",
      "CNI_NETNS=/ns",
      "CNI_ARGS=A=1;B=2",
      "CNI_IFNAME=eth0",
      "CNI_PATH=/a:/b",
    ]);
    await cni.getStatusNetworkList(list());
    expect((exec.execPluginCall.received.environ ?? []).slice(-6)).toEqual([
      "CNI_COMMAND=STATUS",
      "CNI_CONTAINERID=",
      "CNI_NETNS=",
      "CNI_ARGS=",
      "CNI_IFNAME=",
      "CNI_PATH=/a:/b",
    ]);
  });

  it("reads the configuration from its bytes on every call, as upstream: changed in place, capabilities set on the object", async () => {
    const cni = new CNIConfig({ cacheDir: dir, exec });
    const conflist = confList(
      '{"name":"n","cniVersion":"1.1.0","plugins":[{"type":"p","mtu":1500,"capabilities":{"x":false}}]}',
    );
    const stdin = () => text(exec.execPluginCall.received.stdinData ?? new Uint8Array());
    const withCaps = { ...rt, capabilityArgs: { x: 1 } };
    await cni.addNetworkList(conflist, withCaps);
    expect(stdin()).toContain('"mtu":1500');
    const [plugin] = conflist.plugins;
    // The caller's object is not what Go reads: no runtimeConfig while the bytes say false.
    plugin.network.capabilities = { x: true };
    plugin.bytes.set(new TextEncoder().encode("9000"), text(plugin.bytes).indexOf("1500"));
    await cni.addNetworkList(conflist, withCaps);
    expect(stdin()).toContain('"mtu":9000');
    expect(stdin()).not.toContain("runtimeConfig");
  });

  it("passes the call's trace context to VERSION too (getVersionInfo, validate), as upstream main", async () => {
    const cni = new CNIConfig({ path: ["/p"], cacheDir: dir, exec });
    exec.execPluginCall.returns.resultBytes =
      '{"cniVersion":"1.1.0","supportedVersions":["1.1.0"]}';
    const traceContext = { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" };
    await cni.getVersionInfo("p", { traceContext });
    expect(exec.execPluginCall.received.traceContext).toEqual(traceContext);
    exec.execPluginCall.received.traceContext = undefined;
    await cni.validateNetworkList(list(), { traceContext });
    expect(exec.execPluginCall.received.traceContext).toEqual(traceContext);
  });

  it("hands the signal to the exec", async () => {
    const cni = new CNIConfig({ cacheDir: dir, exec });
    const controller = new AbortController();
    await cni.addNetworkList(list(), rt, { signal: controller.signal });
    expect(exec.execPluginCall.received.signal).toBe(controller.signal);
  });

  it("GC sweeps a crashed writer's old temporary files, and leaves a fresh one", async () => {
    const cni = new CNIConfig({ cacheDir: dir, exec });
    await cni.addNetworkList(list(), rt);
    const results = join(dir, "results");
    writeFileSync(join(results, ".libcni-00aa.tmp"), "left by a crash");
    writeFileSync(join(results, ".libcni-00bb.tmp"), "being written");
    const old = (Date.now() - 3600_000) / 1000;
    utimesSync(join(results, ".libcni-00aa.tmp"), old, old);
    await cni.gcNetworkList(list(), { validAttachments: [{ containerID: "c", ifname: "eth0" }] });
    expect(readdirSync(results).sort()).toEqual([".libcni-00bb.tmp", "n-c-eth0"]);
  });

  it("reports a failed GC configuration, skips that plugin and goes on to the next (upstream #1184; main panics)", async () => {
    const cni = new CNIConfig({ cacheDir: dir, exec });
    const two = confList('{"name":"n","cniVersion":"1.1.0","plugins":[{"type":"p"},{"type":"q"}]}');
    // Bytes that are not an object make injectConf fail for the first plugin only.
    two.plugins[0] = { ...two.plugins[0], bytes: new TextEncoder().encode("[]") };
    const error = await failure(cni.gcNetworkList(two, { validAttachments: [] }));
    expect(error).toBeInstanceOf(MultiError);
    // One error only: the plugin whose configuration failed is not run (upstream main goes on
    // to gcNetwork with a nil config, a second failure, a panic in Go).
    expect((error as MultiError).errors).toHaveLength(1);
    expect(error.message).toMatch(
      /^failed to generate configuration to GC plugin p: unmarshal existing network bytes: [^\n]*$/,
    );
    expect(exec.calls).toHaveLength(1);
    expect(text(exec.calls[0].stdinData)).toBe(
      '{"cni.dev/attachments":[],"cni.dev/valid-attachments":[],"cniVersion":"1.1.0","name":"n","type":"q"}',
    );
  });
});
