/**
 * The pieces of upstream's setupRuntimeConfig and of pflag/cobra's parsing, one by one.
 */
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argsMinusFirst, FlagError, parseFlags, stripFlags } from "../../src/cli/flags.js";
import {
  absolutePath,
  containerIDForNetns,
  goWorkingDirectory,
  parseCapabilityArgs,
  parseCNIArgsPairs,
  pluginPaths,
  resolveIfName,
} from "../../src/cli/runtime-config.js";
import { flagsOf } from "../../src/cli/usage.js";

describe("containerIDForNetns", () => {
  // Expected values from coreutils: printf '%s' PATH | sha512sum | cut -c1-20
  it.each([
    ["/var/run/netns/test", "cnitool-7b8a61d5d8e94d07cbe4"],
    ["/run/netns/blue", "cnitool-df26705e2e4ffd095eb1"],
  ])("%s -> %s", (path, id) => {
    expect(containerIDForNetns(path)).toBe(id);
  });

  it("is cnitool- and 20 lowercase hex digits for any path (a valid container ID)", () => {
    fc.assert(
      fc.property(fc.string(), (path) => {
        expect(containerIDForNetns(path)).toMatch(/^cnitool-[0-9a-f]{20}$/);
      }),
    );
  });
});

describe("absolutePath (Go filepath.Abs)", () => {
  it.each([
    ["ns", "/work", "/work/ns"],
    ["./a/../ns/", "/work", "/work/ns"],
    ["/run//netns/./x/", "/work", "/run/netns/x"],
    ["", "/work", "/work"],
  ])("%j in %s -> %s", (p, cwd, expected) => {
    expect(absolutePath(p, cwd)).toBe(expected);
  });
});

describe("goWorkingDirectory (Go os.Getwd)", () => {
  it("is $PWD when it names the current directory (a symlinked path stays as typed), else the physical path", async () => {
    const root = await mkdtemp(join(tmpdir(), "libcni-cli-cwd-"));
    const here = process.cwd();
    try {
      await mkdir(join(root, "real"));
      await symlink(join(root, "real"), join(root, "link"));
      process.chdir(join(root, "link"));
      const physical = process.cwd();
      expect(await goWorkingDirectory({ PWD: join(root, "link") })).toBe(join(root, "link"));
      expect(await goWorkingDirectory({ PWD: root })).toBe(physical);
      expect(await goWorkingDirectory({ PWD: "relative" })).toBe(physical);
      expect(await goWorkingDirectory({})).toBe(physical);
      expect(await goWorkingDirectory({ PWD: join(root, "gone") })).toBe(physical);
    } finally {
      process.chdir(here);
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("parseCNIArgsPairs", () => {
  it("splits K=V pairs on ;", () => {
    expect(parseCNIArgsPairs("A=1;B=two")).toEqual([
      ["A", "1"],
      ["B", "two"],
    ]);
  });

  it("any pair without exactly one = and both sides non-empty is refused, quoted as Go's %q", () => {
    expect(() => parseCNIArgsPairs('A="x"=')).toThrow('invalid CNI_ARGS pair "A=\\"x\\"="');
    expect(() => parseCNIArgsPairs("A=1;")).toThrow('invalid CNI_ARGS pair ""');
  });

  it("round-trips any list of valid pairs", () => {
    const part = fc.string({ minLength: 1 }).filter((s) => !s.includes(";") && !s.includes("="));
    fc.assert(
      fc.property(fc.array(fc.tuple(part, part), { minLength: 1 }), (pairs) => {
        expect(parseCNIArgsPairs(pairs.map(([k, v]) => `${k}=${v}`).join(";"))).toEqual(pairs);
      }),
    );
  });
});

describe("parseCapabilityArgs", () => {
  it("an object is returned as is, numbers included; null is none", () => {
    expect(parseCapabilityArgs('{"b":[1.5],"a":{"x":true}}')).toEqual({ b: [1.5], a: { x: true } });
    expect(parseCapabilityArgs("null")).toBeUndefined();
  });
});

describe("resolveIfName and pluginPaths", () => {
  it("flag, then CNI_IFNAME, then eth0", () => {
    expect(resolveIfName("a", { CNI_IFNAME: "b" })).toBe("a");
    expect(resolveIfName("", { CNI_IFNAME: "b" })).toBe("b");
    expect(resolveIfName(undefined, {})).toBe("eth0");
  });

  it("CNI_PATH splits on : (Go filepath.SplitList), empty gives none", () => {
    expect(pluginPaths({ CNI_PATH: "/a::/b" })).toEqual(["/a", "", "/b"]);
    expect(pluginPaths({ CNI_PATH: "" })).toEqual([]);
    expect(pluginPaths({})).toEqual([]);
  });
});

describe("parseFlags (pflag)", () => {
  const flags = flagsOf("gc");

  it("takes flags anywhere among the positional arguments", () => {
    const p = parseFlags(["n", "-i", "e1", "ns", "--valid", "a:b", "--cache-dir=/c"], flags);
    expect(p.args).toEqual(["n", "ns"]);
    expect(Object.fromEntries(p.values)).toEqual({ ifname: "e1", valid: "a:b", "cache-dir": "/c" });
  });

  it("a run of shorthands: -hi takes i's value from the next word; -ih is i with value h", () => {
    expect(Object.fromEntries(parseFlags(["-hi", "e1"], flags).values)).toEqual({
      help: "true",
      ifname: "e1",
    });
    expect(Object.fromEntries(parseFlags(["-ih"], flags).values)).toEqual({ ifname: "h" });
    expect(Object.fromEntries(parseFlags(["-i="], flags).values)).toEqual({ ifname: "=" });
    expect(Object.fromEntries(parseFlags(["--ifname="], flags).values)).toEqual({ ifname: "" });
  });

  it("-- ends the flags; - alone and the empty word are positional", () => {
    const p = parseFlags(["-", "", "--", "-i", "--x"], flags);
    expect(p.args).toEqual(["-", "", "-i", "--x"]);
    expect(p.values.size).toBe(0);
  });

  it("a flag value may start with a dash", () => {
    expect(parseFlags(["-i", "-x"], flags).values.get("ifname")).toBe("-x");
  });

  it("errors are FlagErrors with pflag's text", () => {
    expect(() => parseFlags(["-\u0001"], flags)).toThrow(
      new FlagError("unknown shorthand flag: '\\x01' in -\u0001"),
    );
    expect(() => parseFlags(["-'"], flags)).toThrow("unknown shorthand flag: '\\'' in -'");
  });
});

describe("stripFlags and argsMinusFirst (cobra's command search)", () => {
  it("every flag without = is taken to consume the next word", () => {
    expect(stripFlags(["-i", "add", "net", "ns"])).toEqual(["net", "ns"]);
    expect(stripFlags(["--ifname=x", "add", "net"])).toEqual(["add", "net"]);
    expect(stripFlags(["-ix", "add"])).toEqual(["add"]);
    expect(stripFlags(["add", "-i"])).toEqual(["add"]);
    expect(stripFlags(["-i", "add"])).toEqual([]);
    expect(stripFlags(["--", "add"])).toEqual([]);
  });

  it("removes the first occurrence of the command that is not a flag's value", () => {
    expect(argsMinusFirst(["-i", "add", "add", "ns"], "add")).toEqual(["-i", "add", "ns"]);
    expect(argsMinusFirst(["net", "add"], "add")).toEqual(["net"]);
    expect(argsMinusFirst(["--", "add"], "add")).toEqual(["--", "add"]);
  });
});
