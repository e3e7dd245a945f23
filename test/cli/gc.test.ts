/**
 * `cnitool gc` says what it collected (one `<container-id>:<ifname>` a line, or JSON with
 * `--json`), and `--dry-run` says what it would collect and runs nothing: no plugin (the noop
 * fixture's debug file, rewritten on every call, stays as it was) and no file touched (the
 * cache dir compared before and after).
 */
import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resultJSON, Sandbox } from "./helpers.js";

const blue = "/run/netns/blue";
const green = "/run/netns/green";

/** Every file under `root` with its size, modification time and content. */
async function tree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      const s = await stat(path, { bigint: true });
      if (e.isDirectory()) await walk(path);
      else out[relative(root, path)] = `${s.size} ${s.mtimeNs} ${await readFile(path, "base64")}`;
    }
  };
  await walk(root);
  return out;
}

let box: Sandbox;
let blueID: string;
let greenID: string;
beforeEach(async () => {
  box = await Sandbox.create({ version: "1.1.0" });
  await box.run(["--cache-dir", box.cache, "add", "net", blue]);
  blueID = (await box.lastCall()).cmdArgs.containerID;
  await box.run(["--cache-dir", box.cache, "add", "net", green]);
  greenID = (await box.lastCall()).cmdArgs.containerID;
});
afterEach(() => box.dispose());

const gc = (...args: string[]) => box.run(["--cache-dir", box.cache, "gc", ...args, "net", blue]);
const byRecord = (ids: string[]) => ids.sort().map((id) => `${id}:eth0`);

describe("cnitool gc --dry-run", () => {
  it("prints what gc would collect, runs no plugin and touches no file", async () => {
    const debug = await readFile(box.debug, "utf8");
    const before = await tree(box.cache);
    const r = await gc("--dry-run");
    expect(r).toEqual({
      code: 0,
      stdout: `${byRecord([blueID, greenID]).join("\n")}\n`,
      stderr: "",
    });
    expect(await readFile(box.debug, "utf8")).toBe(debug);
    expect(await tree(box.cache)).toEqual(before);
    // gc itself collects exactly that.
    expect(await gc()).toEqual(r);
    expect(await tree(box.cache)).toEqual({});
  });

  it("leaves out what --valid keeps; JSON with --json", async () => {
    const r = await gc("--dry-run", "--json", "--valid", `${greenID}:eth0`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      network: "net",
      dryRun: true,
      collected: [{ containerID: blueID, ifName: "eth0", netNS: blue }],
    });
    // As the other additions print JSON: keys sorted (a Go map), 4-space indent.
    expect(r.stdout).toMatch(/^\{\n {4}"collected": \[\n {8}\{\n/);
    expect((await readdir(join(box.cache, "results"))).length).toBe(2);
  });

  it("a list with disableGC: nothing would be collected, nothing is", async () => {
    const file = join(box.netd, "10-net.conflist");
    const list = JSON.parse(await readFile(file, "utf8"));
    await writeFile(file, JSON.stringify({ ...list, disableGC: true }));
    expect(await gc("--dry-run")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await gc()).toEqual({ code: 0, stdout: "", stderr: "" });
    expect((await readdir(join(box.cache, "results"))).length).toBe(2);
  });
});

describe("cnitool gc output", () => {
  it("--json: the network and what was collected, 4-space indented", async () => {
    const r = await gc("--json", "--valid", `${blueID}:eth0`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      network: "net",
      dryRun: false,
      collected: [{ containerID: greenID, ifName: "eth0", netNS: green }],
    });
    expect(await readdir(join(box.cache, "results"))).toEqual([`net-${blueID}-eth0`]);
  });

  it("nothing to collect: prints nothing, as upstream's (JSON: an empty list)", async () => {
    await gc();
    expect(await gc()).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(JSON.parse((await gc("--json")).stdout).collected).toEqual([]);
  });

  it("a GC that fails prints what it collected (nothing here), then the error, exit 1", async () => {
    await box.script({ reportError: "plugin down", reportErrorCode: 11, reportResult: resultJSON });
    const r = await gc();
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^Error: failed to delete stale attachment .*plugin down/);
    expect((await readdir(join(box.cache, "results"))).length).toBe(2);
  });

  it("a results dir it cannot list: the GC's own error, and the plugins' GC still runs", async () => {
    await rm(join(box.cache, "results"), { recursive: true });
    await writeFile(join(box.cache, "results"), "");
    const r = await gc();
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^Error: failed to list cached attachments: ENOTDIR/);
    expect((await box.lastCall()).command).toBe("GC");
  });
});
