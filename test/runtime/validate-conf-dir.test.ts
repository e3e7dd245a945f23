/**
 * validateConfDir: every file the runtime would load, linted, loaded, its plugins looked up and
 * asked for VERSION (tiny shell plugins in a temp bin dir), each finding placed in its file.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { DefaultExec, FakeExec } from "../../src/invoke/index.js";
import { loadNetworks, validateConfDir } from "../../src/runtime/index.js";
import { type Dirs, dirs, writeNetwork } from "./helpers.js";

const all = ["0.3.1", "0.4.0", "1.0.0", "1.1.0"];

let d: Dirs;
let bin: string;
let log: string;
const exec = new DefaultExec({ stderr: null });

/** A plugin answering VERSION with `versions` (and logging each call), or as `script` says. */
async function plugin(name: string, versions: string[] = all, script?: string): Promise<void> {
  const answer = JSON.stringify({ cniVersion: "1.0.0", supportedVersions: versions });
  const body =
    script ?? `cat > /dev/null\necho "${name} $CNI_COMMAND" >> '${log}'\nprintf '%s' '${answer}'`;
  await writeFile(join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

async function conf(file: string, content: unknown): Promise<string> {
  const path = join(d.confDir, file);
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const validate = (extra: Parameters<typeof validateConfDir>[0] = {}) =>
  validateConfDir({ confDir: d.confDir, binDirs: [bin], exec, ...extra });

/** The findings as `<file relative to the base>:<pointer> <severity> <kind>`. */
async function brief(extra: Parameters<typeof validateConfDir>[0] = {}): Promise<string[]> {
  const report = await validate(extra);
  return report.findings.map(
    (f) => `${f.file.slice(d.base.length + 1)}:${f.pointer} ${f.severity} ${f.kind}`,
  );
}

beforeEach(async () => {
  d = await dirs();
  bin = join(d.base, "bin");
  log = join(d.base, "calls.log");
  await mkdir(bin);
  await writeFile(log, "");
  await plugin("bridge");
  await plugin("portmap");
  await plugin("host-local");
});
afterEach(() => d.cleanup());

describe("validateConfDir: a clean dir", () => {
  it("no findings; the files in the runtime's order (name order, .conf/.conflist/.json only)", async () => {
    await writeNetwork(d.confDir, "20-b.conflist", "b", [
      { type: "bridge", ipam: { type: "host-local" } },
      { type: "portmap", capabilities: { portMappings: true } },
    ]);
    await conf("10-a.conf", {
      cniVersion: "1.0.0",
      name: "a",
      type: "bridge",
      ipam: { type: "host-local" },
    });
    await conf("30-c.json", { cniVersion: "0.4.0", name: "c", type: "bridge" });
    await conf("40-ignored.txt", "{");
    const report = await validate();
    expect(report.findings).toEqual([]);
    expect(report.confDir).toBe(d.confDir);
    expect(report.binDirs).toEqual([bin]);
    const runtime = await loadNetworks({
      confDir: d.confDir,
      binDirs: [bin],
      cacheDir: d.cacheDir,
    });
    expect(report.files).toEqual(runtime.networks.map((n) => n.file));
    expect(report.files.map((f) => f.slice(d.confDir.length + 1))).toEqual([
      "10-a.conf",
      "20-b.conflist",
      "30-c.json",
    ]);
  });

  it("asks each plugin binary for VERSION once, however many lists use it", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge", "portmap"]);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["bridge", "portmap"]);
    await conf("30-c.conf", { cniVersion: "1.0.0", name: "c", type: "bridge" });
    expect((await validate()).findings).toEqual([]);
    const calls = (await readFile(log, "utf8")).trim().split("\n").sort();
    expect(calls).toEqual(["bridge VERSION", "portmap VERSION"]);
  });
});

describe("validateConfDir: the conf dir itself", () => {
  it("a missing dir, an empty dir: one error each", async () => {
    const missing = await validate({ confDir: join(d.base, "nope") });
    expect(missing.findings).toEqual([
      {
        file: join(d.base, "nope"),
        pointer: "",
        severity: "error",
        message: `conf dir ${join(d.base, "nope")} does not exist`,
        kind: "conf-dir",
      },
    ]);
    expect(missing.files).toEqual([]);
    expect(await brief()).toEqual(["net.d: error conf-dir"]);
  });

  it("a directory named like a conf file: a warning (the runtime skips it)", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    await mkdir(join(d.confDir, "20-old.conflist"));
    const report = await validate();
    expect(report.findings).toEqual([
      {
        file: join(d.confDir, "20-old.conflist"),
        pointer: "",
        severity: "warning",
        message: "a directory named like a conf file: the runtime skips it",
        kind: "conf-dir",
      },
    ]);
  });

  it("no bin dir: plugins are not checked, and a warning says so", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["not-installed"]);
    expect(await brief({ binDirs: [] })).toEqual(["net.d: warning plugins-unchecked"]);
  });
});

describe("validateConfDir: files the runtime skips", () => {
  it("a file that is not JSON: not loaded, and the lint's line and column", async () => {
    await conf("10-bad.conflist", '{\n  "name": "x",\n  "plugins": [,]\n}\n');
    const { findings } = await validate();
    expect(findings.map((f) => [f.pointer, f.severity, f.kind])).toEqual([
      ["", "error", "load"],
      ["", "error", "lint"],
    ]);
    expect(findings[0].message).toMatch(/^not loaded: error parsing configuration list: /);
    expect(findings[0].message).not.toContain("(file ");
    expect(findings[1].message).toMatch(/\(line 3, column 15\)$/);
  });

  it("a second file of one network name: an error at its name; its plugins are not run", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    const second = await writeNetwork(d.confDir, "20-a.conflist", "a", ["not-installed"]);
    const { findings } = await validate();
    expect(findings).toEqual([
      {
        file: second,
        pointer: "/name",
        severity: "error",
        message: `network "a" is already defined by ${join(d.confDir, "10-a.conflist")}: the runtime skips this file`,
        kind: "duplicate-network",
      },
    ]);
  });

  it("with loopback, a file naming the runtime's loopback network is skipped, as the runtime skips it", async () => {
    const file = await writeNetwork(d.confDir, "10-lo.conflist", "cni-loopback", ["bridge"]);
    await writeNetwork(d.confDir, "20-a.conflist", "a", ["bridge"]);
    expect((await validate()).findings).toEqual([]);
    const { findings } = await validate({ loopback: true });
    expect(findings).toEqual([
      {
        file,
        pointer: "/name",
        severity: "error",
        message: `network "cni-loopback" is already defined by the runtime's loopback network (loopback): the runtime skips this file`,
        kind: "duplicate-network",
      },
    ]);
    const runtime = await loadNetworks({ confDir: d.confDir, binDirs: [bin], loopback: true });
    expect(runtime.problems.map((p) => [p.file, p.kind])).toEqual([[file, "invalid"]]);
  });

  it("a single plugin's config in a .conflist: read as a list of no plugins", async () => {
    await conf("10-a.conflist", { cniVersion: "1.0.0", name: "a", type: "bridge" });
    const { findings } = await validate();
    expect(findings.map((f) => [f.pointer, f.severity, f.kind, f.message])).toEqual([
      ["", "error", "load", "not loaded: no plugin configs found"],
      [
        "/type",
        "error",
        "wrong-extension",
        'a single plugin\'s config ("type", no "plugins") in a .conflist: read as a list, its "type" is ignored and the network gets plugins only from its drop-in directory; name the file .conf, or put the plugin in "plugins"',
      ],
    ]);
  });

  it("a single plugin's config in a .conflist with a drop-in dir: it loads, and the ignored type is said once", async () => {
    await conf("10-a.conflist", { cniVersion: "1.0.0", name: "a", type: "bridge" });
    await mkdir(join(d.confDir, "a"));
    await writeFile(join(d.confDir, "a", "10-pm.conf"), JSON.stringify({ type: "portmap" }));
    expect(await brief()).toEqual(["net.d/10-a.conflist:/type error wrong-extension"]);
  });

  it("a list in a .conf (or .json): read as a single plugin, which fails", async () => {
    await conf("10-a.conf", { cniVersion: "1.0.0", name: "a", plugins: [{ type: "bridge" }] });
    await conf("20-b.json", { cniVersion: "1.0.0", name: "b", plugins: [{ type: "bridge" }] });
    const { findings } = await validate();
    expect(findings.map((f) => [f.file.slice(d.confDir.length + 1), f.pointer, f.kind])).toEqual([
      ["10-a.conf", "", "load"],
      ["10-a.conf", "/plugins", "wrong-extension"],
      ["20-b.json", "", "load"],
      ["20-b.json", "/plugins", "wrong-extension"],
    ]);
    expect(findings[0].message).toBe("not loaded: error parsing configuration: missing 'type'");
    expect(findings[3].message).toContain("in a .json file");
  });
});

describe("validateConfDir: plugins", () => {
  it("a plugin or IPAM plugin not in the bin dirs: an error at its type, upstream's text", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", [
      { type: "bridge", ipam: { type: "whereabouts" } },
      { type: "tuning" },
    ]);
    await conf("20-b.conf", { cniVersion: "1.0.0", name: "b", type: "macvlan" });
    const { findings } = await validate();
    expect(findings.map((f) => [f.file.slice(d.confDir.length + 1), f.pointer, f.message])).toEqual(
      [
        [
          "10-a.conflist",
          "/plugins/0/ipam/type",
          `failed to find plugin "whereabouts" in path [${bin}] (the IPAM plugin)`,
        ],
        ["10-a.conflist", "/plugins/1/type", `failed to find plugin "tuning" in path [${bin}]`],
        ["20-b.conf", "/type", `failed to find plugin "macvlan" in path [${bin}]`],
      ],
    );
    expect(new Set(findings.map((f) => `${f.severity} ${f.kind}`))).toEqual(
      new Set(["error plugin-not-found"]),
    );
  });

  it("a key written in another case is pointed at as written", async () => {
    await conf("10-a.conf", { cniVersion: "1.0.0", name: "a", Type: "tuning" });
    const { findings } = await validate();
    expect(findings.filter((f) => f.kind === "plugin-not-found").map((f) => f.pointer)).toEqual([
      "/Type",
    ]);
  });

  it("a plugin that does not support the list's version: which versions it does", async () => {
    await plugin("old", ["0.3.1", "0.4.0"]);
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge", "old"], "1.1.0");
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["old"], "0.4.0");
    const { findings } = await validate();
    expect(findings).toEqual([
      {
        file: join(d.confDir, "10-a.conflist"),
        pointer: "/plugins/1/type",
        severity: "error",
        message: 'plugin old does not support config version "1.1.0" (it supports 0.3.1, 0.4.0)',
        kind: "plugin-version",
      },
    ]);
  });

  it("an IPAM plugin too old for the list: the error at ipam/type", async () => {
    await plugin("old-ipam", ["0.3.1"]);
    await writeNetwork(d.confDir, "10-a.conflist", "a", [
      { type: "bridge", ipam: { type: "old-ipam" } },
    ]);
    const { findings } = await validate();
    expect(findings.map((f) => [f.pointer, f.kind, f.message])).toEqual([
      [
        "/plugins/0/ipam/type",
        "plugin-version",
        'IPAM plugin old-ipam does not support config version "1.0.0" (it supports 0.3.1)',
      ],
    ]);
  });

  it("a plugin whose VERSION fails, or hangs past the limit: an error naming it", async () => {
    await plugin("broken", [], "cat > /dev/null\necho not json\nexit 0");
    await plugin("hangs", [], "cat > /dev/null\nexec sleep 30");
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["broken", "hangs"]);
    const { findings } = await validate({ timeout: 300 });
    expect(findings.map((f) => [f.pointer, f.kind])).toEqual([
      ["/plugins/0/type", "plugin-version"],
      ["/plugins/1/type", "plugin-version"],
    ]);
    expect(findings[0].message).toMatch(
      new RegExp(`^plugin broken \\(${join(bin, "broken")}\\) did not answer VERSION: `),
    );
    expect(findings[1].message).toBe(
      `plugin hangs (${join(bin, "hangs")}) did not answer VERSION within 300 ms`,
    );
  });

  it("the same plugin type twice in a list: a warning at the second, naming the first", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge", "portmap", "bridge"]);
    const { findings } = await validate();
    expect(findings).toEqual([
      {
        file: join(d.confDir, "10-a.conflist"),
        pointer: "/plugins/2/type",
        severity: "warning",
        message:
          'plugin type "bridge" is already in the list (/plugins/0/type): each runs in turn with the previous one\'s result, so a chain rarely means to run one twice',
        kind: "duplicate-plugin-type",
      },
    ]);
  });

  it("drop-in plugins: each finding in the drop-in file, at its own pointer", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    await mkdir(join(d.confDir, "a"));
    const dropIn = join(d.confDir, "a", "10-x.conf");
    await writeFile(
      dropIn,
      JSON.stringify({ type: "bridge", capabilities: { portmappings: true } }),
    );
    const other = join(d.confDir, "a", "20-y.conf");
    await writeFile(other, JSON.stringify({ type: "sbr" }));
    const { findings } = await validate();
    expect(findings[1].message).toContain(
      `already in the list (${join(d.confDir, "10-a.conflist")}:/plugins/0/type)`,
    );
    expect(findings.map((f) => [f.file, f.pointer, f.severity, f.kind])).toEqual([
      [dropIn, "/capabilities/portmappings", "error", "lint"],
      [dropIn, "/type", "warning", "duplicate-plugin-type"],
      [other, "/type", "error", "plugin-not-found"],
    ]);
  });

  it("drop-in plugins: a finding's pointer keeps its escapes (RFC 6901: ~ as ~0, / as ~1)", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    await mkdir(join(d.confDir, "a"));
    const dropIn = join(d.confDir, "a", "10-x.conf");
    await writeFile(dropIn, JSON.stringify({ type: "sbr", capabilities: { "x/y~z": true } }));
    const { findings } = await validate();
    expect(findings.filter((f) => f.kind === "lint").map((f) => [f.file, f.pointer])).toEqual([
      [dropIn, "/capabilities/x~1y~0z"],
    ]);
  });

  it("a broken drop-in file: the load error names it", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    await mkdir(join(d.confDir, "a"));
    await writeFile(join(d.confDir, "a", "10-x.conf"), "{");
    const { findings } = await validate();
    expect(findings.map((f) => [f.file, f.pointer, f.kind])).toEqual([
      [join(d.confDir, "a", "10-x.conf"), "", "load"],
    ]);
  });
});

describe("validateConfDir: lint findings", () => {
  it("each in its file, with the linter's pointer, severity and message", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", [
      { type: "bridge" },
      { type: "portmap", capabilities: { portMapping: true } },
    ]);
    await conf("20-b.conf", { cniVersion: "1.0.0", name: "b", type: "bridge", runtimeConfig: {} });
    const { findings } = await validate();
    expect(findings).toEqual([
      {
        file: join(d.confDir, "10-a.conflist"),
        pointer: "/plugins/1/capabilities/portMapping",
        severity: "warning",
        message: 'unknown capability (not in the CNI conventions) (did you mean "portMappings"?)',
        kind: "lint",
      },
      {
        file: join(d.confDir, "20-b.conf"),
        pointer: "/runtimeConfig",
        severity: "warning",
        message:
          "runtimeConfig is reserved: the runtime writes it from the capabilities and replaces this one",
        kind: "lint",
      },
    ]);
  });
});

describe("validateConfDir: options and abort", () => {
  it("bad options: InvalidArgumentError naming the option", async () => {
    await expect(validateConfDir({ confDir: "" })).rejects.toThrow(InvalidArgumentError);
    await expect(validateConfDir({ binDirs: [""] })).rejects.toMatchObject({
      argument: "binDirs",
    });
    await expect(validateConfDir({ timeout: -1 })).rejects.toMatchObject({ argument: "timeout" });
  });

  it("an aborted signal rejects with its reason", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    const reason = new Error("stop");
    await expect(validate({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it("aborting during a VERSION rejects with the reason, not a finding", async () => {
    await plugin("hangs", [], "cat > /dev/null\nexec sleep 30");
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["hangs"]);
    const controller = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => controller.abort(reason), 200);
    await expect(validate({ signal: controller.signal })).rejects.toBe(reason);
  });

  it("plugins found and run through the given Exec", async () => {
    const fake = new FakeExec();
    fake.findInPathCall.returns.path = "/fake/bridge";
    fake.execPluginCall.returns.resultBytes = new TextEncoder().encode(
      '{"cniVersion":"1.0.0","supportedVersions":["0.4.0"]}',
    );
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    const { findings } = await validateConfDir({ confDir: d.confDir, exec: fake });
    expect(findings.map((f) => f.message)).toEqual([
      'plugin bridge does not support config version "1.0.0" (it supports 0.4.0)',
    ]);
  });
});
