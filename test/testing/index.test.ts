// The entry's surface: what libcni/testing re-exports and the spec-version list.
import { describe, expect, it } from "vitest";
import * as invoke from "../../src/invoke/index.js";
import * as netns from "../../src/netns/index.js";
import * as testing from "../../src/testing/index.js";
import { all } from "../../src/version/index.js";

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

  it("re-exports the invoke fakes and the netns exec, the same objects", () => {
    expect(testing.FakeExec).toBe(invoke.FakeExec);
    expect(testing.FakeCNIArgs).toBe(invoke.FakeCNIArgs);
    expect(testing.execInNetns).toBe(netns.execInNetns);
    expect(testing.isNetns).toBe(netns.isNetns);
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
