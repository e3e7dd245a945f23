/**
 * `cnitool validate` prints the conflist linter's findings: one line per finding on stderr,
 * the validation's JSON on stdout as before, exit 1 when the lint has an error.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { usageOf } from "../../src/cli/usage.js";
import { pluginDir } from "../fixtures/plugins/noop-debug.js";
import { Sandbox } from "./helpers.js";

let box: Sandbox;
beforeEach(async () => {
  box = await Sandbox.create();
});
afterEach(async () => {
  await box.dispose();
});

const printed = (capabilities: string[]) =>
  `${JSON.stringify({ capabilities, cniVersion: "1.0.0", name: "net" }, null, 4)}\n`;

describe("validate: lint findings", () => {
  it("a clean network: nothing on stderr, the JSON as before, exit 0", async () => {
    await box.network("net", "1.0.0", { capabilities: { portMappings: true } });
    expect(await box.run(["validate", "net"])).toEqual({
      code: 0,
      stdout: printed(["portMappings"]),
      stderr: "",
    });
  });

  it("warnings only: a line each on stderr, the JSON on stdout, exit 0", async () => {
    await box.network("net", "1.0.0", { capabilities: { portMapping: true }, cniVersion: "0.4.0" });
    expect(await box.run(["validate", "net"])).toEqual({
      code: 0,
      stdout: printed(["portMapping"]),
      stderr: [
        `lint warning "/plugins/0/capabilities/portMapping": unknown capability (not in the CNI conventions) (did you mean "portMappings"?)`,
        `lint warning "/plugins/0/cniVersion": a plugin's cniVersion is replaced by the list's version at run time`,
        "",
      ].join("\n"),
    });
  });

  it("a lint error (a capability arg of the wrong shape): errors before warnings, JSON still printed, exit 1", async () => {
    await box.network("net", "1.0.0", {
      capabilities: { portMappings: true },
      runtimeConfig: { portMappings: [{ hostPort: "80", containerPort: 80 }] },
    });
    expect(await box.run(["validate", "net"])).toEqual({
      code: 1,
      stdout: printed(["portMappings"]),
      stderr: [
        'lint error "/plugins/0/runtimeConfig/portMappings/0/hostPort": must be a port number (1-65535)',
        'lint warning "/plugins/0/runtimeConfig": runtimeConfig is reserved: the runtime writes it from the capabilities and replaces this one',
        "",
      ].join("\n"),
    });
  });

  it("the issue's typo {\"plugin\": [...]}: the load's error once (no usage), then the lint says why", async () => {
    await writeFile(
      join(box.netd, "10-net.conflist"),
      JSON.stringify({ cniVersion: "1.0.0", name: "net", plugin: [{ type: "noop.mjs" }] }),
    );
    const r = await box.run(["validate", "net"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const error = `no plugin configs found (file ${join(box.netd, "10-net.conflist")})`;
    expect(r.stderr).toBe(
      [
        `Error: ${error}`,
        'lint error "/plugin": the list has no "plugins" (did you mean "plugins"?): its plugins are never run',
        "",
      ].join("\n"),
    );
  });

  it("a plugin check that fails: the error once (no usage), then the lint lines, exit 1", async () => {
    await box.network("net", "1.0.0", { type: "nope", capabilities: { macc: true } });
    const r = await box.run(["validate", "net"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const error = `[failed to find plugin "nope" in path [${pluginDir}]]`;
    expect(r.stderr).toBe(
      [
        `Error: ${error}`,
        'lint warning "/plugins/0/capabilities/macc": unknown capability (not in the CNI conventions) (did you mean "mac"?)',
        "",
      ].join("\n"),
    );
  });

  it("a network that is not there: the error once, no usage, exit 1", async () => {
    const r = await box.run(["validate", "other"]);
    expect(r).toEqual({
      code: 1,
      stdout: "",
      stderr: `Error: no net configuration with name "other" in ${box.netd}\n`,
    });
    expect(r.stderr).not.toContain(usageOf("validate"));
  });

  it("a file that is not a conflist (a broken drop-in plugin .conf) is not linted: the error alone", async () => {
    await box.network("net", "1.0.0");
    const dropIns = join(box.netd, "net");
    await mkdir(dropIns);
    await writeFile(join(dropIns, "10-x.conf"), "{");
    const r = await box.run(["validate", "net"]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("lint ");
  });

  it("the built binary writes the same bytes to the same streams, with the same exit code", async () => {
    await box.network("net", "1.0.0", { runtimeConfig: { mac: 1 } });
    const inProcess = await box.run(["validate", "net"]);
    expect(inProcess.code).toBe(1);
    expect(await box.exec(["validate", "net"])).toEqual(inProcess);
  });
});

describe("validate: one file, and a conf dir with a broken file", () => {
  it("a broken file of the conf dir does not mask another network", async () => {
    await writeFile(join(box.netd, "05-broken.conflist"), "{");
    await box.network("net", "1.0.0", { capabilities: { portMappings: true } });
    expect(await box.run(["validate", "net"])).toEqual({
      code: 0,
      stdout: printed(["portMappings"]),
      stderr: "",
    });
  });

  it("--file validates and lints one file, a single plugin's .conf included", async () => {
    const file = join(box.root, "single.conf");
    await writeFile(
      file,
      JSON.stringify({
        cniVersion: "1.0.0",
        name: "net",
        type: "noop.mjs",
        capabilities: { Mac: true },
      }),
    );
    expect(await box.run(["validate", "--file", file])).toEqual({
      code: 1,
      stdout: printed(["Mac"]),
      stderr:
        'lint error "/capabilities/Mac": capability names are matched exactly: "Mac" is never delivered (did you mean "mac"?)\n',
    });
  });

  it("--file on a file that is not JSON: the load's error, then the lint with line and column", async () => {
    const file = join(box.root, "bad.conflist");
    await writeFile(file, '{\n  "name": "net",\n  "plugins": [,]\n}\n');
    const r = await box.run(["validate", "--file", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^Error: /);
    expect(r.stderr).toMatch(
      /lint error "": cannot be decoded: invalid character ',' looking for beginning of value \(line 3, column 15\)\n$/,
    );
  });
});

describe("validate: a single plugin's .conf of the conf dir", () => {
  it("is linted as the file it is: a valid one gives no finding", async () => {
    await writeFile(
      join(box.netd, "30-mv.conf"),
      JSON.stringify({
        cniVersion: "1.0.0",
        name: "mv",
        type: "noop.mjs",
        master: "eth0",
        mode: "bridge",
        ipam: { type: "host-local", subnet: "10.1.0.0/24" },
      }),
    );
    const r = await box.run(["validate", "mv"]);
    expect(r).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ capabilities: [], cniVersion: "1.0.0", name: "mv" }, null, 4)}\n`,
      stderr: "",
    });
  });
});
