/**
 * GetVersionInfo against a real plugin: Debian's containernetworking-plugins (as CI installs).
 * Without the package this fails, it does not skip.
 */
import { describe, expect, it } from "vitest";
import { DefaultExec } from "../../src/invoke/exec.js";
import { getVersionInfo } from "../../src/invoke/index.js";

describe("getVersionInfo, a real plugin", () => {
  it("a real plugin (Debian's bridge) answers VERSION through the default exec", async () => {
    const info = await getVersionInfo("/usr/lib/cni/bridge", new DefaultExec({ stderr: null }));
    expect(info.supportedVersions()).toContain("0.4.0");
    expect(info.supportedVersions()).toContain("1.0.0");
  });
});
