/**
 * Every cnitool command against the noop fixture plugin, in-process: what it prints (bytes),
 * its exit code, what the plugin received, and what the result cache holds afterwards.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pluginDir, stdinText } from "../fixtures/plugins/noop-debug.js";
import { resultJSON, resultPrinted, Sandbox } from "./helpers.js";

// sha512("/run/netns/blue")[:10] in hex, computed with coreutils' sha512sum.
const blue = "/run/netns/blue";
const blueID = "cnitool-df26705e2e4ffd095eb1";

let box: Sandbox;
beforeEach(async () => {
  box = await Sandbox.create();
});
afterEach(async () => {
  await box.dispose();
});

const cacheFile = (id: string, ifName = "eth0", net = "net") =>
  join(box.cache, "results", `${net}-${id}-${ifName}`);

async function cachedRecords(): Promise<string[]> {
  try {
    return (await readdir(join(box.cache, "results"))).sort();
  } catch {
    return [];
  }
}

describe("add", () => {
  it("prints the result as upstream's Result.Print (4-space indent, no newline), exit 0, nothing on stderr", async () => {
    const r = await box.run(["--cache-dir", box.cache, "add", "net", blue]);
    expect(r).toEqual({ code: 0, stdout: resultPrinted, stderr: "" });
  });

  it("runs the plugin with the derived container ID, the netns, eth0, CNI_PATH and the network's config", async () => {
    await box.run(["--cache-dir", box.cache, "add", "net", blue]);
    const call = await box.lastCall();
    expect(call.command).toBe("ADD");
    expect(call.cmdArgs).toMatchObject({
      containerID: blueID,
      netns: blue,
      ifName: "eth0",
      args: "",
      path: pluginDir,
    });
    expect(JSON.parse(stdinText(call))).toEqual({
      cniVersion: "1.0.0",
      name: "net",
      type: "noop.mjs",
      debugFile: box.debug,
    });
  });

  it("caches the result under --cache-dir as <net>-<containerID>-<ifname>", async () => {
    await box.run(["--cache-dir", box.cache, "add", "net", blue]);
    expect(await cachedRecords()).toEqual([`net-${blueID}-eth0`]);
    const record = JSON.parse(await readFile(cacheFile(blueID), "utf8"));
    expect(record).toMatchObject({
      kind: "cniCacheV1",
      containerId: blueID,
      ifName: "eth0",
      networkName: "net",
      netns: blue,
    });
    expect(record.result.ips[0].address).toBe("10.1.2.3/24");
  });

  it("a plugin error: exit 1 with the chain's error, nothing cached", async () => {
    await box.script({ reportError: "no space left", reportErrorCode: 11 });
    const r = await box.run(["--cache-dir", box.cache, "add", "net", blue]);
    const message = 'plugin type="noop.mjs" failed (add): no space left';
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(
      r.stderr.startsWith(
        `Error: ${message}\nUsage:\n  cnitool add <network-name> <netns> [flags]\n`,
      ),
    ).toBe(true);
    expect(r.stderr.endsWith(`\n\n${message}\n`)).toBe(true);
    expect(await cachedRecords()).toEqual([]);
  });

  it("an unknown network: conf's error, exit 1, no plugin run", async () => {
    const r = await box.run(["--cache-dir", box.cache, "add", "other", blue]);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(
      `Error: no net configuration with name "other" in ${box.netd}`,
    );
    expect((await box.lastCall()).command).toBe("");
  });

  it("a third positional argument is ignored, as cobra's MinimumNArgs allows", async () => {
    const r = await box.run(["--cache-dir", box.cache, "add", "net", blue, "extra"]);
    expect(r.code).toBe(0);
    expect((await box.lastCall()).cmdArgs.netns).toBe(blue);
  });
});

describe("check, del", () => {
  beforeEach(async () => {
    await box.run(["--cache-dir", box.cache, "add", "net", blue]);
  });

  it("check runs CHECK with the cached result as prevResult; prints nothing, exit 0", async () => {
    const r = await box.run(["--cache-dir", box.cache, "check", "net", blue]);
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    const call = await box.lastCall();
    expect(call.command).toBe("CHECK");
    expect(call.cmdArgs.containerID).toBe(blueID);
    expect(JSON.parse(stdinText(call)).prevResult).toEqual(JSON.parse(resultJSON));
  });

  it("check reports the plugin's error, exit 1", async () => {
    await box.script({ reportError: "link is down", reportErrorCode: 999 });
    const r = await box.run(["--cache-dir", box.cache, "check", "net", blue]);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe("Error: link is down");
    expect(r.stderr.endsWith("\n\nlink is down\n")).toBe(true);
  });

  it("del runs DEL with the cached result and removes the record; prints nothing, exit 0", async () => {
    const r = await box.run(["--cache-dir", box.cache, "del", "net", blue]);
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    const call = await box.lastCall();
    expect(call.command).toBe("DEL");
    expect(JSON.parse(stdinText(call)).prevResult).toEqual(JSON.parse(resultJSON));
    expect(await cachedRecords()).toEqual([]);
  });

  it("del of an attachment never added still runs DEL, without prevResult (DEL is idempotent)", async () => {
    const r = await box.run(["--cache-dir", box.cache, "del", "net", "/run/netns/other"]);
    expect(r.code).toBe(0);
    const call = await box.lastCall();
    expect(call.command).toBe("DEL");
    expect(JSON.parse(stdinText(call)).prevResult).toBeUndefined();
  });
});

describe("gc", () => {
  const green = "/run/netns/green";
  let greenID: string;

  beforeEach(async () => {
    await box.network("net", "1.1.0");
    await box.run(["--cache-dir", box.cache, "add", "net", blue]);
    await box.run(["--cache-dir", box.cache, "add", "net", green]);
    greenID = (await box.lastCall()).cmdArgs.containerID;
  });

  it("without --valid (upstream): every cached attachment is DELeted, then GC without a valid list", async () => {
    const r = await box.run(["--cache-dir", box.cache, "gc", "net", blue]);
    // Each collected attachment, in record order (an addition: upstream prints nothing).
    const collected = [`${blueID}:eth0`, `${greenID}:eth0`].sort();
    expect(r).toEqual({ code: 0, stdout: `${collected.join("\n")}\n`, stderr: "" });
    expect(await cachedRecords()).toEqual([]);
    const call = await box.lastCall();
    expect(call.command).toBe("GC");
    expect(call.cmdArgs.containerID).toBe("");
    // Upstream's cnitool passes nil GC args: libcni then injects no attachment list at all.
    expect(stdinText(call)).not.toContain("attachments");
  });

  it("--valid keeps the listed attachments and tells the plugin about them", async () => {
    const r = await box.run([
      "--cache-dir",
      box.cache,
      "gc",
      "--valid",
      `${greenID}:eth0,other:eth9`,
      "net",
      blue,
    ]);
    expect(r).toEqual({ code: 0, stdout: `${blueID}:eth0\n`, stderr: "" });
    expect(await cachedRecords()).toEqual([`net-${greenID}-eth0`]);
    const gc = JSON.parse(stdinText(await box.lastCall()));
    expect(gc["cni.dev/valid-attachments"]).toEqual([
      { containerID: greenID, ifname: "eth0" },
      { containerID: "other", ifname: "eth9" },
    ]);
  });

  it("--valid '' keeps nothing and sends an empty list", async () => {
    await box.run(["--cache-dir", box.cache, "gc", "--valid=", "net", blue]);
    expect(await cachedRecords()).toEqual([]);
    expect(stdinText(await box.lastCall())).toContain('"cni.dev/valid-attachments":[]');
  });

  it.each([
    "nocolon",
    ":eth0",
    "cid:",
    "a:b,,c:d",
    // Names that no record holds: kept by nothing, they made GC DEL what they were to keep.
    "a:eth0, b:eth0",
    "a:b:eth0",
    "a:eth 0",
  ])("--valid %j is refused, exit 1, nothing collected", async (valid) => {
    const r = await box.run(["--cache-dir", box.cache, "gc", "--valid", valid, "net", blue]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^Error: invalid --valid attachment ".*": want <container-id>:<ifname>\n/,
    );
    expect((await cachedRecords()).length).toBe(2);
  });

  it("entries split at commas or newlines (a dry run's lines)", async () => {
    await box.run(["--cache-dir", box.cache, "gc", "--valid", "a:eth0\nb-1:net1,c:d", "net", blue]);
    const gc = JSON.parse(stdinText(await box.lastCall()));
    expect(gc["cni.dev/valid-attachments"]).toEqual([
      { containerID: "a", ifname: "eth0" },
      { containerID: "b-1", ifname: "net1" },
      { containerID: "c", ifname: "d" },
    ]);
  });
});

describe("status", () => {
  it("runs STATUS for a 1.1.0 network; prints nothing, exit 0", async () => {
    await box.network("net", "1.1.0");
    const r = await box.run(["status", "net", blue]);
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect((await box.lastCall()).command).toBe("STATUS");
  });

  it("reports the plugin's error, exit 1", async () => {
    await box.network("net", "1.1.0");
    await box.script({ reportError: "not ready", reportErrorCode: 50 });
    const r = await box.run(["status", "net", blue]);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toMatch(/^Error: .*not ready/);
  });
});

describe("version (an addition)", () => {
  it("prints the versions the plugin reports to VERSION, 4-space indented, with a newline", async () => {
    const r = await box.run(["version", "noop.mjs"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    // Without CNI_ARGS noop reports its default list, bogus entry included.
    expect(r.stdout).toBe(
      `{
    "cniVersion": "1.1.0",
    "supportedVersions": [
        "0.-42.0",
        "0.1.0",
        "0.2.0",
        "0.3.0",
        "0.3.1",
        "0.4.0",
        "1.0.0",
        "1.1.0"
    ]
}
`,
    );
  });

  it("a plugin not in CNI_PATH: exit 1", async () => {
    const r = await box.run(["version", "nope"]);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(
      `Error: failed to find plugin "nope" in path [${pluginDir}]`,
    );
  });
});

describe("validate (an addition)", () => {
  it("prints the network's name, version and the capabilities its plugins accept", async () => {
    await box.network("net", "1.0.0", { capabilities: { portMappings: true, bandwidth: false } });
    const r = await box.run(["validate", "net"]);
    expect(r).toEqual({
      code: 0,
      stdout: `{
    "capabilities": [
        "portMappings"
    ],
    "cniVersion": "1.0.0",
    "name": "net"
}
`,
      stderr: "",
    });
    expect((await box.lastCall()).command).toBe("");
  });

  it("a plugin that does not support the network's version: exit 1", async () => {
    await box.network("net", "0.9.0");
    const r = await box.run(["validate", "net"]);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toContain('does not support config version "0.9.0"');
  });
});

describe("attachments (an addition)", () => {
  it("lists the cached attachments, all or one container's; [] when none", async () => {
    expect(await box.run(["--cache-dir", box.cache, "attachments"])).toEqual({
      code: 0,
      stdout: "[]\n",
      stderr: "",
    });
    await box.run(["--cache-dir", box.cache, "add", "net", blue], {
      CAP_ARGS: '{"portMappings":[{"hostPort":80}]}',
      CNI_ARGS: "K=V",
    });
    await box.run(["--cache-dir", box.cache, "add", "-i", "eth1", "net", "/run/netns/green"]);
    const all = await box.run(["--cache-dir", box.cache, "attachments"]);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toHaveLength(2);
    const one = await box.run(["--cache-dir", box.cache, "attachments", blueID]);
    expect(one).toEqual({
      code: 0,
      stdout: `[
    {
        "capabilityArgs": {
            "portMappings": [
                {
                    "hostPort": 80
                }
            ]
        },
        "cniArgs": [
            [
                "K",
                "V"
            ]
        ],
        "containerID": "${blueID}",
        "ifName": "eth0",
        "netNS": "${blue}",
        "network": "net"
    }
]
`,
      stderr: "",
    });
  });

  it("a relative --cache-dir is taken from the working directory", async () => {
    await box.run(["--cache-dir", "rel-cache", "add", "net", blue]);
    expect(await readdir(join(box.root, "rel-cache", "results"))).toEqual([`net-${blueID}-eth0`]);
  });

  it("reads the cache named by --cache-dir only", async () => {
    await box.run(["--cache-dir", box.cache, "add", "net", blue]);
    const other = await box.run(["--cache-dir", join(box.root, "other"), "attachments"]);
    expect(other.stdout).toBe("[]\n");
  });
});
