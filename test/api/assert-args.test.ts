/**
 * Issue 11: the CNIConfig verbs check the shapes a JavaScript caller passes before any lock,
 * file or plugin, with an InvalidArgumentError naming the offending value. Above all, GC's
 * valid attachments spelled as a RuntimeConf (`ifName`) must fail, never delete the attachment.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  assertGCArgs,
  assertNetworkList,
  assertPluginConfig,
  assertRuntimeConf,
} from "../../src/api/assert-args.js";
import { CNIConfig } from "../../src/api/cni-config.js";
import type { GCArgs, RuntimeConf } from "../../src/api/types.js";
import type { NetworkConfigList, PluginConfig } from "../../src/conf/index.js";
import { InvalidArgumentError, LibcniError } from "../../src/errors/index.js";
import { FakeExec } from "../../src/invoke/fake-exec.js";
import type { CNIError } from "../../src/types/index.js";
import { confList, pluginConf } from "./helpers.js";

const rt: RuntimeConf = { containerID: "cid", netNS: "/proc/self/ns/net", ifName: "eth0" };
const list = confList('{"cniVersion":"1.1.0","name":"e11net","plugins":[{"type":"a"}]}');
const net = pluginConf('{"cniVersion":"1.1.0","name":"e11net","type":"a"}');

function invalid(fn: () => unknown): InvalidArgumentError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e).toBeInstanceOf(LibcniError);
    expect((e as InvalidArgumentError).id).toBe("LIBCNI_ERR_INVALID_ARGUMENT");
    return e as InvalidArgumentError;
  }
  throw new Error("did not throw");
}

describe("CNIConfig's options", () => {
  it("refuses a path that is one string (Go's Path is []string) and options that are no object", () => {
    const one = invalid(() => new CNIConfig({ path: "/opt/cni/bin" as unknown as string[] }));
    expect(one.argument).toBe("options.path");
    expect(one.message).toBe(
      "options.path must be an array of plugin directories (strings), got a string",
    );
    expect(invalid(() => new CNIConfig(null as never)).argument).toBe("options");
    expect(new CNIConfig({ path: ["/a", "/b"] }).path).toEqual(["/a", "/b"]);
  });

  it("refuses a cacheDir that is no string and a durableCache that is no boolean; null is the default", () => {
    const dir = invalid(() => new CNIConfig({ cacheDir: 42 as unknown as string }));
    expect(dir.message).toBe("options.cacheDir must be a string, got a number");
    const durable = invalid(() => new CNIConfig({ durableCache: "no" as unknown as boolean }));
    expect(durable.message).toBe("options.durableCache must be a boolean, got a string");
    const defaults = new CNIConfig({ cacheDir: null, durableCache: null } as never);
    expect(defaults.cacheDir).toBe("");
    expect(new CNIConfig({ cacheDir: "/c", durableCache: false }).cacheDir).toBe("/c");
  });

  it("refuses options spelled but for case, which would be ignored", () => {
    for (const [given, key] of [
      ["cachedir", "cacheDir"],
      ["pluginNetNS", "pluginNetns"],
      ["Path", "path"],
    ]) {
      const e = invalid(() => new CNIConfig({ [given]: "/x" } as never));
      expect(e.argument).toBe(`options.${key}`);
      expect(e.message).toBe(`options has "${given}": the field is spelled "${key}"`);
    }
  });
});

describe("assertRuntimeConf", () => {
  it("accepts a RuntimeConf, with or without its optional fields", () => {
    assertRuntimeConf(rt);
    assertRuntimeConf({ ...rt, netNS: "", args: [["K", "V"]], capabilityArgs: { a: 1 } });
    assertRuntimeConf({ ...rt, args: undefined, capabilityArgs: undefined, cacheDir: "/c" });
  });

  it("names rt.ifName when the caller spelled it ifname", () => {
    const e = invalid(() => assertRuntimeConf({ containerID: "c", netNS: "/n", ifname: "eth0" }));
    expect(e.argument).toBe("rt.ifName");
    expect(e.message).toBe(
      'rt.ifName must be a string, got undefined (it has "ifname": the field is spelled "ifName")',
    );
  });

  it.each([
    [undefined, "rt", "rt must be a RuntimeConf object, got undefined"],
    [[], "rt", "rt must be a RuntimeConf object, got an array"],
    [
      { netNS: "", ifName: "e" },
      "rt.containerID",
      "rt.containerID must be a string, got undefined",
    ],
    [
      { containerId: "c", netNS: "", ifName: "e" },
      "rt.containerID",
      'rt.containerID must be a string, got undefined (it has "containerId": the field is spelled "containerID")',
    ],
    [{ containerID: "c", ifName: "e" }, "rt.netNS", "rt.netNS must be a string, got undefined"],
    [
      { containerID: "c", netNS: 3, ifName: "e" },
      "rt.netNS",
      "rt.netNS must be a string, got a number",
    ],
    [
      { ...rt, args: "K=V" },
      "rt.args",
      "rt.args must be an array of [key, value] string pairs, got a string",
    ],
    [
      { ...rt, args: [["K", "V"], ["K"]] },
      "rt.args[1]",
      "rt.args[1] must be a [key, value] pair of strings, got an array",
    ],
    [
      { ...rt, args: [{ K: "V" }] },
      "rt.args[0]",
      "rt.args[0] must be a [key, value] pair of strings, got an object",
    ],
    [
      { ...rt, capabilityArgs: [] },
      "rt.capabilityArgs",
      "rt.capabilityArgs must be an object of capability arguments, got an array",
    ],
    [{ ...rt, cacheDir: 1 }, "rt.cacheDir", "rt.cacheDir must be a string, got a number"],
  ])("rejects %j (%s)", (value, argument, message) => {
    const e = invalid(() => assertRuntimeConf(value));
    expect(e.argument).toBe(argument);
    expect(e.message).toBe(message);
  });
});

describe("assertGCArgs", () => {
  it("accepts undefined, no attachments, and { containerID, ifname } entries", () => {
    assertGCArgs(undefined);
    assertGCArgs({});
    assertGCArgs({ validAttachments: [] });
    assertGCArgs({ validAttachments: [{ containerID: "c", ifname: "eth0" }] });
  });

  it("names the entry when it is spelled as a RuntimeConf (ifName)", () => {
    const e = invalid(() =>
      assertGCArgs({
        validAttachments: [
          { containerID: "a", ifname: "eth0" },
          { containerID: "c", ifName: "eth0" },
        ],
      }),
    );
    expect(e.argument).toBe("gcArgs.validAttachments[1].ifname");
    expect(e.message).toBe(
      'gcArgs.validAttachments[1].ifname must be a string, got undefined (it has "ifName": the field is spelled "ifname")',
    );
  });

  it("refuses another key: a misspelled validAttachments would make every attachment stale", () => {
    const e = invalid(() => assertGCArgs({ validattachments: [] }));
    expect(e.message).toBe(
      'gcArgs must be { validAttachments }, got an object (it has "validattachments")',
    );
  });

  it.each([
    [null, "gcArgs"],
    [[], "gcArgs"],
    [{ validAttachments: {} }, "gcArgs.validAttachments"],
    [{ validAttachments: ["c:eth0"] }, "gcArgs.validAttachments[0]"],
    [{ validAttachments: [{ ifname: "eth0" }] }, "gcArgs.validAttachments[0].containerID"],
  ])("rejects %j", (value, argument) => {
    expect(invalid(() => assertGCArgs(value)).argument).toBe(argument);
  });
});

describe("assertNetworkList and assertPluginConfig", () => {
  it("accept what the parsers return", () => {
    assertNetworkList(list);
    assertNetworkList(confList('{"cniVersion":"1.1.0","name":"empty"}'));
    assertPluginConfig(net);
  });

  it("reject a raw conflist object in place of a parsed one", () => {
    const raw = { cniVersion: "1.1.0", name: "n", plugins: [{ type: "bridge" }] };
    const e = invalid(() => assertNetworkList(raw));
    expect(e.argument).toBe("list.plugins[0]");
    expect(e.message).toBe(
      "list.plugins[0] must be a PluginConfig ({ network, bytes }, as networkPluginConfFromBytes returns), got an object without network and bytes",
    );
  });

  it.each([
    [undefined, "list"],
    [{ ...list, name: 1 }, "list.name"],
    [{ ...list, cniVersion: undefined }, "list.cniVersion"],
    [{ ...list, plugins: undefined }, "list.plugins"],
    [{ ...list, disableGC: "yes" }, "list.disableGC"],
    [{ ...list, bytes: "{}" }, "list.bytes"],
    [{ ...list, plugins: [{ ...list.plugins[0], bytes: undefined }] }, "list.plugins[0].bytes"],
  ])("rejects a list with a bad %s", (value, argument) => {
    expect(invalid(() => assertNetworkList(value)).argument).toBe(argument);
  });

  it("hints at `plugins` when a hand-built list says `plugin`", () => {
    const { plugins, ...rest } = list;
    const e = invalid(() => assertNetworkList({ ...rest, plugin: plugins }));
    expect(e.message).toBe(
      'list.plugins must be an array of PluginConfig, got undefined (it has "plugin": the field is spelled "plugins")',
    );
  });

  it.each([
    [{ bytes: net.bytes }, "net.network"],
    [{ type: "a" }, "net"],
    [{ ...net, network: { ...net.network, type: 1 } }, "net.network.type"],
    [{ network: net.network }, "net.bytes"],
  ])("rejects a PluginConfig with a bad %s", (value, argument) => {
    expect(invalid(() => assertPluginConfig(value)).argument).toBe(argument);
  });
});

describe("the CNIConfig verbs check first", () => {
  let base: string;
  let exec: FakeExec;
  let cni: CNIConfig;

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "e11-checkargs-"));
    exec = new FakeExec();
    exec.findInPathCall.returns = { path: "/fake/a" };
    exec.execPluginCall.returns = {
      resultBytes: '{"cniVersion":"1.1.0","ips":[{"address":"10.0.0.2/24"}]}',
    };
    cni = new CNIConfig({ path: ["/fake"], cacheDir: join(base, "cache"), exec });
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const bad = { containerID: "cid", netNS: "/n", ifname: "eth0" } as unknown as RuntimeConf;

  it("every RuntimeConf verb rejects `ifname` before running a plugin", async () => {
    const calls: Promise<unknown>[] = [
      cni.addNetworkList(list, bad),
      cni.checkNetworkList(list, bad),
      cni.delNetworkList(list, bad),
      cni.addNetwork(net, bad),
      cni.checkNetwork(net, bad),
      cni.delNetwork(net, bad),
      cni.getNetworkListCachedResult(list, bad),
      cni.getNetworkCachedResult(net, bad),
      cni.getNetworkListCachedConfig(list, bad),
      cni.getNetworkCachedConfig(net, bad),
    ];
    for (const call of calls) {
      const e = await call.catch((err: unknown) => err);
      expect(e).toBeInstanceOf(InvalidArgumentError);
      expect((e as InvalidArgumentError).argument).toBe("rt.ifName");
    }
    expect(exec.calls).toHaveLength(0);
  });

  it("every list verb rejects a raw object", async () => {
    const raw = {
      cniVersion: "1.1.0",
      name: "n",
      plugins: [{ type: "a" }],
    } as unknown as NetworkConfigList;
    const rawNet = { type: "a" } as unknown as PluginConfig;
    for (const call of [
      cni.addNetworkList(raw, rt),
      cni.gcNetworkList(raw),
      cni.getStatusNetworkList(raw),
      cni.validateNetworkList(raw),
      cni.validateNetwork(rawNet),
      cni.addNetwork(rawNet, rt),
      cni.getVersionInfo(undefined as unknown as string),
      cni.getCachedAttachments(undefined as unknown as string),
    ]) {
      await expect(call).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    expect(exec.calls).toHaveLength(0);
  });

  it("upstream's own validation still answers for what upstream checks, with its CNI code", async () => {
    const e = await cni
      .addNetworkList(list, { ...rt, containerID: "" })
      .catch((err: unknown) => err);
    expect(e).not.toBeInstanceOf(InvalidArgumentError);
    expect((e as Error).message).toContain("missing containerID");
    expect(((e as Error).cause as CNIError).code).toBe(3);
  });

  it("GC with `ifName` in a valid attachment throws and deletes nothing", async () => {
    await cni.addNetworkList(list, rt);
    expect(await cni.getCachedAttachments("cid")).toHaveLength(1);
    const before = exec.calls.length;
    const args = {
      validAttachments: [{ containerID: "cid", ifName: "eth0" }],
    } as unknown as GCArgs;
    const e = await cni.gcNetworkList(list, args).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect((e as InvalidArgumentError).argument).toBe("gcArgs.validAttachments[0].ifname");
    // No DEL ran and the record is still there.
    expect(exec.calls.length).toBe(before);
    expect(await cni.getCachedAttachments("cid")).toHaveLength(1);
    // Spelled right, the attachment is kept and GC goes on.
    await cni.gcNetworkList(list, { validAttachments: [{ containerID: "cid", ifname: "eth0" }] });
    expect(await cni.getCachedAttachments("cid")).toHaveLength(1);
  });
});

describe("CNIConfig options", () => {
  it("refuses pluginNetns together with an exec (the Exec carries its own netns)", () => {
    const error = invalid(
      () => new CNIConfig({ exec: new FakeExec(), pluginNetns: "/run/netns/x" }),
    );
    expect(error.argument).toBe("pluginNetns");
  });

  it("runs plugins in pluginNetns through a DefaultExec with that netns", () => {
    expect(() => new CNIConfig({ pluginNetns: "/run/netns/x" })).not.toThrow();
  });
});
