// The entry's surface: its own names only (docs/public-surface.md), the spec-version list, and
// the options argument of every function that takes one.
import { describe, expect, it } from "vitest";
import { InvalidArgumentError, NetnsError } from "../../src/errors/index.js";
import * as invoke from "../../src/invoke/index.js";
import * as netns from "../../src/netns/index.js";
import * as testing from "../../src/testing/index.js";
import { all } from "../../src/version/index.js";
import { expectOptionsRefused } from "../errors/options-refusal.js";

describe("libcni/testing", () => {
  it("lists every spec version, as upstream's testutils.AllSpecVersions", () => {
    expect(testing.allSpecVersions).toEqual([
      "0.1.0",
      "0.2.0",
      "0.3.0",
      "0.3.1",
      "0.4.0",
      "1.0.0",
      "1.1.0",
    ]);
    expect(testing.allSpecVersions).toEqual(all.supportedVersions());
    expect(Object.isFrozen(testing.allSpecVersions)).toBe(true);
  });

  it("re-exports no name of another entry: the fakes are libcni/invoke's, namespaces libcni/netns'", () => {
    const others = new Set([...Object.keys(invoke), ...Object.keys(netns)]);
    expect(Object.keys(testing).filter((name) => others.has(name))).toEqual([]);
  });

  it("exports the helpers", () => {
    const { eventually, failpointPlugin, findPluginDirs, ping, requirePlugins } = testing;
    const { runInNetns, sweepTestLeftovers, tempNetns, testHost } = testing;
    for (const fn of [eventually, failpointPlugin, findPluginDirs, ping, requirePlugins]) {
      expect(typeof fn).toBe("function");
    }
    for (const fn of [runInNetns, sweepTestLeftovers, tempNetns, testHost]) {
      expect(typeof fn).toBe("function");
    }
    expect([testing.testNamePrefix, testing.checkNamePrefix]).toEqual(["lcnitest", "lcnicheck"]);
  });
});

// Every other argument is bad too where there is one (a NUL in a path, no plugin, no command), so
// that even without the options check nothing would be done; null comes first, so it stops there.
const report = { plugin: "p", supportedVersions: [], versions: [], results: [], counts: [] };
const optionsCalls: [string, (options: never) => Promise<unknown>][] = [
  ["checkPlugin", (o) => testing.checkPlugin("/nonexistent/plugin", o)],
  ["eventually", (o) => testing.eventually(() => 1, o)],
  ["failpointPlugin", (o) => testing.failpointPlugin(o)],
  ["findPluginDirs", (o) => testing.findPluginDirs(o)],
  ["formatReport", async (o) => testing.formatReport({ ...report, passed: true }, o)],
  ["ping", (o) => testing.ping("/run/netns/bad\0name", "127.0.0.1", o)],
  ["requirePlugins", (o) => testing.requirePlugins([], o)],
  ["runInNetns", (o) => testing.runInNetns("/run/netns/bad\0name", ["true"], o)],
  ["runRootless", (o) => testing.runRootless([], o)],
  ["sweepTestLeftovers", (o) => testing.sweepTestLeftovers(o)],
  ["tempNetns", (o) => testing.tempNetns(o)],
  ["testHost", (o) => testing.testHost(o)],
];

describe("libcni/testing options", () => {
  it("lists every exported function that takes options", () => {
    const takeOptions = new Set(optionsCalls.map(([name]) => name));
    const functions = Object.entries(testing).filter(([, v]) => typeof v === "function");
    // The rest take none (checkNamePrefix and specVersionHas*: one string; the errors).
    const without = functions.map(([name]) => name).filter((name) => !takeOptions.has(name));
    expect(without.filter((n) => !/^specVersionHas|Error$|^checkNamePrefix$/.test(n))).toEqual([]);
  });

  it.each(optionsCalls)("%s refuses options that are no object", async (_, call) => {
    await expectOptionsRefused(call);
  });

  // tempNetns, testHost and sweepTestLeftovers would act on the system (their default, `{}`, is
  // the test-host suites'); failpointPlugin's options are required.
  it.each([
    ["checkPlugin", InvalidArgumentError, "plugin"],
    ["ping", NetnsError, undefined],
    ["runInNetns", NetnsError, undefined],
    ["runRootless", InvalidArgumentError, "argv"],
  ] as const)("%s takes undefined options: the next argument is checked", async (name, cls, arg) => {
    const call = optionsCalls.find(([n]) => n === name)?.[1];
    const error = await call?.(undefined as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(cls);
    if (arg !== undefined) expect((error as InvalidArgumentError).argument).toBe(arg);
  });

  it.each([
    ["checkPlugin", "plugin", () => testing.checkPlugin(null as never)],
    ["ping", "netnsPath", () => testing.ping(null as never, "127.0.0.1")],
    ["ping", "address", () => testing.ping("/run/netns/x", undefined as never)],
    ["formatReport", "report", async () => testing.formatReport(null as never)],
  ] as const)("%s refuses its %s argument of the wrong type, before anything else", async (_, arg, call) => {
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe(arg);
  });

  it("eventually, findPluginDirs, requirePlugins and formatReport run on undefined options", async () => {
    await expect(testing.eventually(() => 1, undefined)).resolves.toBe(1);
    await expect(testing.findPluginDirs(undefined)).resolves.toBeInstanceOf(Array);
    await expect(testing.requirePlugins([], undefined)).resolves.toBeInstanceOf(Array);
    expect(testing.formatReport({ ...report, passed: true }, undefined)).toContain("plugin p");
  });
});
