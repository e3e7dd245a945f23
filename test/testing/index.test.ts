// The entry's surface: its own names only (docs/public-surface.md), and the spec-version list.
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
