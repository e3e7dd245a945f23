/**
 * Remembered plugin lookups (src/invoke/find-cache.ts): what is remembered, and that every
 * change to the plugins gives upstream's outcome: a binary replaced in place runs the new file,
 * one removed is looked up again (found in a later directory, or upstream's "failed to find"
 * error), one turned into a directory is skipped as upstream's stat skips it, and a validation
 * failure after a remembered lookup still reports a missing plugin first.
 */
import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig } from "../../src/api/index.js";
import { networkConfFromBytes } from "../../src/conf/index.js";
import { marshal } from "../../src/encoding/json.js";
import { findInPath } from "../../src/invoke/find.js";
import { PluginLookupCache, startFailedMissing } from "../../src/invoke/find-cache.js";
import { makeTempDir, removeTempDir } from "./helpers.js";

/** A shell plugin answering ADD with a result whose one nameserver is `tag`. */
async function installPlugin(dir: string, name: string, tag: string): Promise<void> {
  const path = join(dir, name);
  const temp = `${path}.new`;
  await writeFile(
    temp,
    `#!/bin/sh\ncat >/dev/null\nprintf '{"cniVersion":"1.0.0","dns":{"nameservers":["${tag}"]}}'\n`,
  );
  await chmod(temp, 0o755);
  await rename(temp, path); // replaced as a package manager does
}

const list = (type: string) =>
  networkConfFromBytes(
    new TextEncoder().encode(
      `{"cniVersion":"1.0.0","name":"fcnet","plugins":[{"type":"${type}"},{"type":"${type}"}]}`,
    ),
  );
const rt = { containerID: "fc-container", netNS: "/var/run/netns/fc", ifName: "eth0" };
const tagOf = (result: unknown) => /"nameservers":\["([^"]*)"\]/.exec(marshal(result))?.[1];

describe("PluginLookupCache", () => {
  let a: string;
  let b: string;
  beforeEach(async () => {
    a = await makeTempDir("libcni-fc-a-");
    b = await makeTempDir("libcni-fc-b-");
  });
  afterEach(async () => {
    await removeTempDir(a);
    await removeTempDir(b);
  });

  it("remembers a plugin found in the first directory of an absolute path only", async () => {
    const cache = new PluginLookupCache();
    await installPlugin(a, "first", "1");
    await installPlugin(b, "second", "2");
    expect(await cache.find("first", [a, b])).toEqual({ path: join(a, "first"), cached: false });
    expect(await cache.find("first", [a, b])).toEqual({ path: join(a, "first"), cached: true });
    // Found in a later directory: an earlier one could come to shadow it, so never remembered.
    expect((await cache.find("second", [a, b])).cached).toBe(false);
    expect((await cache.find("second", [a, b])).cached).toBe(false);
    // Another path list is another key.
    expect((await cache.find("first", [a])).cached).toBe(false);
  });

  it("looks up again with upstream's error once forgotten", async () => {
    const cache = new PluginLookupCache();
    await installPlugin(a, "p", "1");
    await cache.find("p", [a, b]);
    await rm(join(a, "p"));
    const upstream = await findInPath("p", [a, b]).catch((e: Error) => e.message);
    await expect(cache.again("p", [a, b])).rejects.toThrow(upstream as string);
  });

  it("recognises a start that failed with ENOENT or EACCES, and nothing else", () => {
    const start = (code: string) => ({ cause: { code, syscall: "spawn /x/p" } });
    expect(startFailedMissing(start("ENOENT"))).toBe(true);
    expect(startFailedMissing(start("EACCES"))).toBe(true);
    expect(startFailedMissing(start("ETXTBSY"))).toBe(false);
    expect(startFailedMissing({ cause: { code: "ENOENT", syscall: "open" } })).toBe(false);
    expect(startFailedMissing(new Error("exit status 1"))).toBe(false);
  });
});

describe("ADD with remembered lookups, against upstream's outcome", () => {
  let a: string;
  let b: string;
  let cacheDir: string;
  let cni: CNIConfig;
  beforeEach(async () => {
    a = await makeTempDir("libcni-fc-a-");
    b = await makeTempDir("libcni-fc-b-");
    cacheDir = await makeTempDir("libcni-fc-cache-");
    cni = new CNIConfig({ path: [a, b], cacheDir });
  });
  afterEach(async () => {
    for (const d of [a, b, cacheDir]) await removeTempDir(d);
  });

  it("runs the new file after a binary is replaced in place", async () => {
    await installPlugin(a, "rep", "old");
    expect(tagOf(await cni.addNetworkList(list("rep"), rt))).toBe("old");
    await installPlugin(a, "rep", "new");
    expect(tagOf(await cni.addNetworkList(list("rep"), rt))).toBe("new");
  });

  it("runs the next directory's plugin after the remembered one is removed", async () => {
    await installPlugin(a, "mv", "in-a");
    await installPlugin(b, "mv", "in-b");
    expect(tagOf(await cni.addNetworkList(list("mv"), rt))).toBe("in-a");
    await rm(join(a, "mv"));
    expect(tagOf(await cni.addNetworkList(list("mv"), rt))).toBe("in-b");
  });

  it("fails with upstream's lookup error after the plugin is removed everywhere", async () => {
    await installPlugin(a, "gone", "x");
    await cni.addNetworkList(list("gone"), rt);
    await rm(join(a, "gone"));
    const upstream = await findInPath("gone", [a, b]).catch((e: Error) => e.message);
    const error = (await cni.addNetworkList(list("gone"), rt).catch((e) => e)) as Error;
    expect(error.message).toBe(`plugin type="gone" failed (add): ${upstream}`);
  });

  it("skips a plugin turned into a directory, as upstream's stat does", async () => {
    await installPlugin(a, "dir", "in-a");
    await installPlugin(b, "dir", "in-b");
    await cni.addNetworkList(list("dir"), rt);
    await rm(join(a, "dir"));
    await mkdir(join(a, "dir"));
    expect(tagOf(await cni.addNetworkList(list("dir"), rt))).toBe("in-b");
  });

  it("reports the missing plugin before an invalid name, as upstream looks up first", async () => {
    await installPlugin(a, "order", "x");
    await cni.addNetworkList(list("order"), rt);
    await rm(join(a, "order"));
    const upstream = await findInPath("order", [a, b]).catch((e: Error) => e.message);
    const bad = { ...rt, containerID: "bad/id" };
    const error = (await cni.addNetworkList(list("order"), bad).catch((e) => e)) as Error;
    expect(error.message).toBe(`plugin type="order" failed (add): ${upstream}`);
  });

  it("VERSION after the remembered plugin is removed: the next directory's, as upstream", async () => {
    const version = (tag: string) =>
      `#!/bin/sh\ncat >/dev/null\nprintf '{"cniVersion":"1.0.0","supportedVersions":["${tag}"]}'\n`;
    for (const [dir, tag] of [
      [a, "0.3.1"],
      [b, "0.4.0"],
    ]) {
      await writeFile(join(dir, "ver"), version(tag), { mode: 0o755 });
    }
    expect((await cni.getVersionInfo("ver")).supportedVersions()).toEqual(["0.3.1"]);
    await rm(join(a, "ver"));
    expect((await cni.getVersionInfo("ver")).supportedVersions()).toEqual(["0.4.0"]);
  });
});
