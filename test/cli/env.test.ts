/**
 * The environment cnitool reads, as upstream's setupRuntimeConfig: NETCONFPATH, CNI_PATH,
 * CAP_ARGS, CNI_ARGS and CNI_IFNAME; and the -i/--ifname flag wherever it stands.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pluginDir, stdinText } from "../fixtures/plugins/noop-debug.js";
import { runInProcess, Sandbox } from "./helpers.js";

let box: Sandbox;
beforeEach(async () => {
  box = await Sandbox.create();
});
afterEach(async () => {
  await box.dispose();
});

const add = (extra: string[] = [], env: Record<string, string | undefined> = {}) =>
  box.run(["--cache-dir", box.cache, "add", ...extra], env);

describe("NETCONFPATH", () => {
  it("names the directory the network is loaded from", async () => {
    expect((await add(["net", "/run/netns/a"])).code).toBe(0);
    expect((await box.lastCall()).command).toBe("ADD");
  });

  it.each([undefined, ""])("unset or empty (%j): /etc/cni/net.d", async (value) => {
    const r = await runInProcess(["add", "zz-no-such-net", "/run/netns/a"], {
      NETCONFPATH: value,
      CNI_PATH: pluginDir,
    });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toMatch(
      /^Error: no net configuration(s found in| with name "zz-no-such-net" in) \/etc\/cni\/net\.d$/,
    );
  });

  it("a directory without configurations: conf's error", async () => {
    const r = await add(["net", "/run/netns/a"], { NETCONFPATH: `${box.root}/empty` });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(`Error: no net configurations found in ${box.root}/empty`);
  });

  it("a single-plugin .conf file is loaded as a list too", async () => {
    await box.network("single", "0.4.0", {}, "20-single.conf");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(
      `${box.netd}/20-single.conf`,
      JSON.stringify({
        cniVersion: "0.4.0",
        name: "single",
        type: "noop.mjs",
        debugFile: box.debug,
      }),
    );
    expect((await add(["single", "/run/netns/a"])).code).toBe(0);
  });
});

describe("CNI_PATH", () => {
  it("is where plugins are looked for, and is passed on to them", async () => {
    await add(["net", "/run/netns/a"], { CNI_PATH: `/nonexistent:${pluginDir}` });
    expect((await box.lastCall()).cmdArgs.path).toBe(`/nonexistent:${pluginDir}`);
  });

  it("unset: no directories to search (upstream FindInPath's error)", async () => {
    const r = await add(["net", "/run/netns/a"], { CNI_PATH: undefined });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(
      'Error: plugin type="noop.mjs" failed (add): no paths provided',
    );
  });
});

describe("CAP_ARGS", () => {
  beforeEach(async () => {
    await box.network("net", "1.0.0", { capabilities: { portMappings: true } });
  });

  it("is a JSON object whose declared capabilities reach the plugin as runtimeConfig", async () => {
    const caps = '{"portMappings":[{"hostPort":8080,"containerPort":80}],"ignored":1}';
    expect((await add(["net", "/run/netns/a"], { CAP_ARGS: caps })).code).toBe(0);
    const conf = JSON.parse(stdinText(await box.lastCall()));
    expect(conf.runtimeConfig).toEqual({ portMappings: [{ hostPort: 8080, containerPort: 80 }] });
  });

  it.each([undefined, "", "null"])("%j: no capability arguments", async (value) => {
    expect((await add(["net", "/run/netns/a"], { CAP_ARGS: value })).code).toBe(0);
    expect(JSON.parse(stdinText(await box.lastCall())).runtimeConfig).toBeUndefined();
  });

  it.each([
    ["[", "unexpected end of JSON input"],
    ["{x}", "invalid character 'x' looking for beginning of object key string"],
    ["[1]", "json: cannot unmarshal array into Go value of type map[string]interface {}"],
    ["1", "json: cannot unmarshal number into Go value of type map[string]interface {}"],
    ['"s"', "json: cannot unmarshal string into Go value of type map[string]interface {}"],
    ["true", "json: cannot unmarshal bool into Go value of type map[string]interface {}"],
  ])("%j is refused with Go's error, before any plugin runs", async (value, message) => {
    const r = await add(["net", "/run/netns/a"], { CAP_ARGS: value });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(`Error: ${message}`);
    expect(r.stderr.endsWith(`\n\n${message}\n`)).toBe(true);
    expect((await box.lastCall()).command).toBe("");
  });

  it("is read by every command that takes a network and netns (gc and status too)", async () => {
    for (const verb of ["check", "del", "gc", "status"]) {
      const r = await box.run([verb, "net", "/run/netns/a"], { CAP_ARGS: "[" });
      expect(r.stderr.split("\n")[0]).toBe("Error: unexpected end of JSON input");
    }
  });
});

describe("CNI_ARGS", () => {
  it("K=V pairs joined by ; reach the plugin as CNI_ARGS, in order", async () => {
    expect(
      (await add(["net", "/run/netns/a"], { CNI_ARGS: "B=2;A=1;IgnoreUnknown=true" })).code,
    ).toBe(0);
    expect((await box.lastCall()).cmdArgs.args).toBe("B=2;A=1;IgnoreUnknown=true");
  });

  it("empty: none", async () => {
    expect((await add(["net", "/run/netns/a"], { CNI_ARGS: "" })).code).toBe(0);
    expect((await box.lastCall()).cmdArgs.args).toBe("");
  });

  it.each([
    ["A", "A"],
    ["A=1;", ""],
    ["A=1;;B=2", ""],
    ["A=1=2", "A=1=2"],
    ["=1", "=1"],
    ["A=", "A="],
    ["\u0001", "\\x01"],
  ])("%j: invalid CNI_ARGS pair %j, nothing run", async (value, quoted) => {
    const r = await add(["net", "/run/netns/a"], { CNI_ARGS: value });
    const message = `invalid CNI_ARGS pair "${quoted}"`;
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(`Error: ${message}`);
    expect(r.stderr.endsWith(`\n\n${message}\n`)).toBe(true);
    expect((await box.lastCall()).command).toBe("");
  });

  it("CAP_ARGS is checked before CNI_ARGS, the configuration before both (upstream's order)", async () => {
    const both = await add(["net", "/run/netns/a"], { CAP_ARGS: "[", CNI_ARGS: "x" });
    expect(both.stderr.split("\n")[0]).toBe("Error: unexpected end of JSON input");
    const noNet = await add(["nonet", "/run/netns/a"], { CAP_ARGS: "[", CNI_ARGS: "x" });
    expect(noNet.stderr.split("\n")[0]).toMatch(/^Error: no net configuration with name "nonet"/);
  });
});

describe("interface name: -i/--ifname, then CNI_IFNAME, then eth0", () => {
  it.each([
    [[], {}, "eth0"],
    [[], { CNI_IFNAME: "" }, "eth0"],
    [[], { CNI_IFNAME: "net1" }, "net1"],
    [["-i", "eth7"], { CNI_IFNAME: "net1" }, "eth7"],
    [["-i", ""], { CNI_IFNAME: "net1" }, "net1"],
    [["--ifname", "eth7"], {}, "eth7"],
    [["--ifname=eth7"], {}, "eth7"],
    [["-ieth7"], {}, "eth7"],
    [["-i=eth7"], {}, "eth7"],
    [["-i", "eth6", "-i", "eth7"], {}, "eth7"],
  ])("flags %j with env %j: %s", async (flags, env, expected) => {
    expect((await add(["net", "/run/netns/a", ...flags], env)).code).toBe(0);
    expect((await box.lastCall()).cmdArgs.ifName).toBe(expected);
  });

  it.each([
    [["-i", "eth5", "add", "net", "/run/netns/a"]],
    [["add", "-i", "eth5", "net", "/run/netns/a"]],
    [["add", "net", "-i", "eth5", "/run/netns/a"]],
    [["add", "net", "/run/netns/a", "-i", "eth5"]],
    [["add", "net", "/run/netns/a", "--ifname=eth5"]],
    [["--ifname", "eth5", "add", "--", "net", "/run/netns/a"]],
  ])("interspersed anywhere: %j", async (argv) => {
    expect((await box.run(["--cache-dir", box.cache, ...argv])).code).toBe(0);
    expect((await box.lastCall()).cmdArgs).toMatchObject({
      ifName: "eth5",
      netns: "/run/netns/a",
    });
  });

  it("after --, a dash word is a positional argument", async () => {
    const r = await box.run(["--cache-dir", box.cache, "add", "net", "--", "-i"]);
    expect(r.code).toBe(0);
    expect((await box.lastCall()).cmdArgs).toMatchObject({
      ifName: "eth0",
      netns: `${box.root}/-i`,
    });
  });

  it("an invalid name is refused by libcni's validation (code 4 text), exit 1", async () => {
    const r = await add(["net", "/run/netns/a"], { CNI_IFNAME: "a/b" });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(
      'Error: plugin type="noop.mjs" failed (add): interface name contains / or : or whitespace characters',
    );
  });
});
