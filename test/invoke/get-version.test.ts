/**
 * GetVersionInfo, integration tests (upstream pkg/invoke/get_version_integration_test.go).
 *
 * Upstream builds Go plugins at historical git refs. Here each historical behaviour is a tiny
 * script answering VERSION exactly as those plugins did; the current one is the noop fixture,
 * A real plugin from Debian's
 * containernetworking-plugins is asked in real-plugin.system.test.ts.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DefaultExec } from "../../src/invoke/exec.js";
import { getVersionInfo, RawExec } from "../../src/invoke/index.js";
import { noopPath } from "../fixtures/plugins/noop-debug.js";
import { makeTempDir, removeTempDir } from "./helpers.js";

async function scriptPlugin(path: string, stdout: string, exitCode: number): Promise<string> {
  const body = `#!/bin/sh\ncat > /dev/null\nprintf '%s' '${stdout}'\nexit ${exitCode}\n`;
  await writeFile(path, body, { mode: 0o755 });
  return path;
}

describe("getVersionInfo, integration tests", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir("plugins");
  });
  afterEach(async () => {
    await removeTempDir(dir);
  });

  const exec = new DefaultExec({ stderr: null });

  it("historical: before VERSION was introduced (the plugin rejects the command)", async () => {
    const plugin = await scriptPlugin(
      join(dir, "v010"),
      '{"code":4,"msg":"unknown CNI_COMMAND: VERSION"}',
      1,
    );
    const info = await getVersionInfo(plugin, exec);
    expect(info.supportedVersions()).toEqual(["0.1.0"]);
  });

  it("historical: when VERSION was introduced but plugins couldn't customize it", async () => {
    const plugin = await scriptPlugin(join(dir, "v020"), '{"cniVersion":"0.2.0"}', 0);
    const info = await getVersionInfo(plugin, exec);
    expect(info.supportedVersions()).toEqual(["0.1.0", "0.2.0"]);
  });

  it("historical: when plugins started reporting their own version list", async () => {
    const plugin = await scriptPlugin(
      join(dir, "v020custom"),
      '{"cniVersion":"0.2.0","supportedVersions":["0.2.0","0.999.0"]}',
      0,
    );
    const info = await getVersionInfo(plugin, exec);
    expect(info.supportedVersions()).toEqual(["0.2.0", "0.999.0"]);
  });

  it("current: the noop plugin built on this project's skel", async () => {
    const info = await getVersionInfo(noopPath, exec);
    expect(info.supportedVersions()).toEqual([
      "0.-42.0",
      "0.1.0",
      "0.2.0",
      "0.3.0",
      "0.3.1",
      "0.4.0",
      "1.0.0",
      "1.1.0",
    ]);
  });

  it("a plugin that fails VERSION with another error: the error", async () => {
    const plugin = await scriptPlugin(join(dir, "broken"), '{"code":7,"msg":"nope"}', 1);
    await expect(getVersionInfo(plugin, exec)).rejects.toMatchObject({ code: 7, message: "nope" });
  });

  it("output that is not VERSION info: the decoder's error", async () => {
    const plugin = await scriptPlugin(join(dir, "odd"), '{"some":"version-info"}', 0);
    await expect(getVersionInfo(plugin, exec)).rejects.toThrow(
      "decoding version info: missing field cniVersion",
    );
  });

  it("a RawExec is not an Exec by itself: DefaultExec adds the decoder", () => {
    expect("decode" in new RawExec()).toBe(false);
    expect(typeof exec.decode).toBe("function");
  });
});
