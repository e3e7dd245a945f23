/**
 * Issue 11: when every plugin of an ADD succeeded but the result could not be cached, the
 * error says the attachment is up and uncached (a DEL is needed), keeps upstream's text as its
 * start, and carries the fs error as `cause` and the unrecorded result.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig } from "../../src/api/cni-config.js";
import { CacheWriteError, GoPathError, LibcniError } from "../../src/errors/index.js";
import { FakeExec } from "../../src/invoke/fake-exec.js";
import type { Result } from "../../src/types/index.js";
import { confList, pluginConf } from "./helpers.js";

const rt = { containerID: "cid", netNS: "/proc/self/ns/net", ifName: "eth0" };
const resultJSON = '{"cniVersion":"1.1.0","ips":[{"address":"10.0.0.2/24"}]}';

describe("a cache write failing after the plugins succeeded", () => {
  let base: string;
  let cacheDir: string;
  let exec: FakeExec;
  let cni: CNIConfig;

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "e11-cachewrite-"));
    cacheDir = join(base, "cache");
    exec = new FakeExec();
    exec.findInPathCall.returns = { path: "/fake/plugin" };
    // The plugin succeeds and, while it runs, the results dir becomes a file.
    exec.execPluginCall.handler = async () => {
      await rm(join(cacheDir, "results"), { recursive: true, force: true });
      await mkdir(cacheDir, { recursive: true });
      await writeFile(join(cacheDir, "results"), "not a directory");
      return resultJSON;
    };
    cni = new CNIConfig({ path: ["/fake"], cacheDir, exec });
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  function expectCacheWriteError(error: unknown, network: string, ran: number): void {
    expect(error).toBeInstanceOf(CacheWriteError);
    expect(error).toBeInstanceOf(LibcniError);
    const e = error as CacheWriteError;
    expect(e.id).toBe("LIBCNI_ERR_CACHE_WRITE");
    expect(e.message).toBe(
      `failed to set network "${network}" cached result: mkdir ${join(cacheDir, "results")}: not a directory (the plugins succeeded: the attachment is up but uncached; DEL it with the same configuration)`,
    );
    expect(e.message).toMatch(/up but uncached/);
    expect(e.cause).toBeInstanceOf(GoPathError);
    expect((e.cause as GoPathError).errno).toBe("ENOTDIR");
    expect(e.attachment).toEqual({ network, containerID: "cid", ifName: "eth0" });
    expect((e.result as Result).cniVersion).toBe("1.1.0");
    expect(exec.calls).toHaveLength(ran);
  }

  it("addNetworkList: CacheWriteError after every plugin ran", async () => {
    const list = confList(
      '{"cniVersion":"1.1.0","name":"e11net","plugins":[{"type":"a"},{"type":"b"}]}',
    );
    const error = await cni.addNetworkList(list, rt).catch((e: unknown) => e);
    expectCacheWriteError(error, "e11net", 2);
  });

  it("addNetwork: CacheWriteError after the plugin ran", async () => {
    const net = pluginConf('{"cniVersion":"1.1.0","name":"e11one","type":"a"}');
    const error = await cni.addNetwork(net, rt).catch((e: unknown) => e);
    expectCacheWriteError(error, "e11one", 1);
  });

  it("a plugin failure is not a CacheWriteError", async () => {
    // The plugin fails, and the results dir is unwritable too: the ADD rejects with the
    // plugin's own error, not a cache error (nothing succeeded, so nothing is cached).
    const failure = new Error("plugin failed");
    const breakCache = exec.execPluginCall.handler;
    exec.execPluginCall.handler = async (call) => {
      await breakCache?.(call);
      throw failure;
    };
    const net = pluginConf('{"cniVersion":"1.1.0","name":"e11one","type":"a"}');
    const error = await cni.addNetwork(net, rt).catch((e: unknown) => e);
    expect(error).toBe(failure);
    expect(error).not.toBeInstanceOf(CacheWriteError);
    expect(exec.calls).toHaveLength(1);
  });
});
