/**
 * The demo's example plugins (examples/plugins/, written with libcni/skel) beyond the demo's
 * happy path: idempotent ADD, an exhausted pool for ADD and STATUS, CHECK of a lost lease, GC
 * keeping what it is told to, a chained plugin run without a previous result, and each plugin's
 * own keys checked against its JSON Schema (ajv) with error code 7 and ajv's text as details.
 */
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { containerIDForNetns } from "../../src/cli/runtime-config.js";
import { runInProcess } from "./helpers.js";

const examples = fileURLToPath(new URL("../../examples/plugins/", import.meta.url));

let root: string;
let env: Record<string, string>;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "libcni-cli-examples-"));
  await mkdir(join(root, "bin"));
  await mkdir(join(root, "net.d"));
  for (const name of ["hello-net", "hello-portmap"]) {
    await symlink(join(examples, `${name}.mjs`), join(root, "bin", name));
  }
  // A /30: one address to lease (10.9.0.2), the gateway being 10.9.0.1.
  await writeFile(
    join(root, "net.d", "10-tiny.conflist"),
    JSON.stringify({
      cniVersion: "1.1.0",
      name: "tiny",
      plugins: [{ type: "hello-net", subnet: "10.9.0.0/30", dataDir: join(root, "leases") }],
    }),
  );
  await writeFile(
    join(root, "net.d", "20-alone.conflist"),
    JSON.stringify({
      cniVersion: "1.1.0",
      name: "alone",
      plugins: [{ type: "hello-portmap", dataDir: join(root, "ports") }],
    }),
  );
  env = { NETCONFPATH: join(root, "net.d"), CNI_PATH: join(root, "bin") };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const cnitool = (...argv: string[]) =>
  runInProcess(["--cache-dir", join(root, "cache"), ...argv], env);
const firstLine = (text: string) => text.split("\n")[0];

/** Runs an example plugin directly, as a runtime would; its exit code and stdout (JSON). */
async function plugin(name: string, command: string, conf: Record<string, unknown>) {
  const r = await execa(process.execPath, [join(examples, `${name}.mjs`)], {
    reject: false,
    input: JSON.stringify({ cniVersion: "1.1.0", name: "net", type: name, ...conf }),
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: "c1",
      CNI_NETNS: "/run/netns/a",
      CNI_IFNAME: "eth0",
      CNI_PATH: join(root, "bin"),
    },
  });
  return { code: r.exitCode, out: JSON.parse(String(r.stdout)) };
}

describe("hello-net", () => {
  it("leases the subnet's first free address, the same one again for the same attachment", async () => {
    const first = await cnitool("add", "tiny", "/run/netns/a");
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).ips).toEqual([
      { address: "10.9.0.2/30", gateway: "10.9.0.1", interface: 0 },
    ]);
    const again = await cnitool("add", "tiny", "/run/netns/a");
    expect(again.stdout).toBe(first.stdout);
    expect(await readdir(join(root, "leases", "tiny"))).toEqual(["10.9.0.2"]);
  });

  it("an exhausted pool fails ADD and STATUS with code 50; DEL frees it", async () => {
    await cnitool("add", "tiny", "/run/netns/a");
    const full = await cnitool("add", "tiny", "/run/netns/b");
    expect(full.code).toBe(1);
    expect(firstLine(full.stderr)).toBe(
      'Error: plugin type="hello-net" failed (add): no free address in 10.9.0.0/30',
    );
    const status = await cnitool("status", "tiny", "/run/netns/b");
    expect(status.code).toBe(1);
    expect(firstLine(status.stderr)).toContain("no free address in 10.9.0.0/30");
    expect((await cnitool("del", "tiny", "/run/netns/a")).code).toBe(0);
    expect((await cnitool("status", "tiny", "/run/netns/b")).code).toBe(0);
    expect((await cnitool("add", "tiny", "/run/netns/b")).code).toBe(0);
  });

  it("CHECK fails once the lease is gone", async () => {
    await cnitool("add", "tiny", "/run/netns/a");
    expect((await cnitool("check", "tiny", "/run/netns/a")).code).toBe(0);
    await rm(join(root, "leases", "tiny", "10.9.0.2"));
    const r = await cnitool("check", "tiny", "/run/netns/a");
    expect(r.code).toBe(1);
    expect(firstLine(r.stderr)).toBe(
      `Error: address 10.9.0.2 is not leased to ${containerIDForNetns("/run/netns/a")} eth0`,
    );
  });

  it("GC releases the leases of attachments not listed as valid", async () => {
    await cnitool("add", "tiny", "/run/netns/a");
    const id = containerIDForNetns("/run/netns/a");
    await cnitool("gc", "--valid", `${id}:eth0`, "tiny", "/run/netns/a");
    expect(await readdir(join(root, "leases", "tiny"))).toEqual(["10.9.0.2"]);
    await cnitool("gc", "--valid", "", "tiny", "/run/netns/a");
    expect(await readdir(join(root, "leases", "tiny"))).toEqual([]);
  });

  it("VERSION lists the versions it was built for", async () => {
    const r = await cnitool("version", "hello-net");
    expect(JSON.parse(r.stdout).supportedVersions).toEqual([
      "0.3.0",
      "0.3.1",
      "0.4.0",
      "1.0.0",
      "1.1.0",
    ]);
  });
});

describe("config validation (ajv)", () => {
  it("hello-net without dataDir fails with code 7, its own message and ajv's details", async () => {
    for (const command of ["ADD", "DEL"]) {
      const r = await plugin("hello-net", command, { subnet: "10.9.0.0/24" });
      expect(r.code).toBe(1);
      expect(r.out).toEqual({
        code: 7,
        msg: "dataDir must be set to a directory",
        details: "config must have required property 'dataDir'",
      });
    }
    const empty = await plugin("hello-net", "ADD", { subnet: "10.9.0.0/24", dataDir: "" });
    expect(empty.out.msg).toBe("dataDir must be set to a directory");
    expect(empty.out.details).toBe("config/dataDir must NOT have fewer than 1 characters");
  });

  it("hello-net refuses a subnet that is not IPv4 /8../30, before writing anything", async () => {
    for (const subnet of ["10.9.0.0/31", "10.9.0.0/7", "10.9.0.256/24", "fd00::/64", 24]) {
      const r = await plugin("hello-net", "ADD", { subnet, dataDir: join(root, "leases") });
      expect(r.code).toBe(1);
      expect(r.out.code).toBe(7);
      expect(r.out.msg).toBe(`invalid subnet ${JSON.stringify(subnet)}`);
      expect(r.out.details).toMatch(/^config\/subnet must /);
    }
    await expect(readdir(root)).resolves.not.toContain("leases");
  });

  it("hello-portmap checks the portMappings the runtime passes", async () => {
    const bad = await plugin("hello-portmap", "ADD", {
      dataDir: join(root, "ports"),
      runtimeConfig: { portMappings: [{ hostPort: 70000, containerPort: 80 }] },
    });
    expect(bad.out).toEqual({
      code: 7,
      msg: "invalid portMappings: each needs a hostPort and a containerPort (1-65535)",
      details: "config/runtimeConfig/portMappings/0/hostPort must be <= 65535",
    });
    const missing = await plugin("hello-portmap", "DEL", {
      dataDir: join(root, "ports"),
      runtimeConfig: { portMappings: [{ hostPort: 8080 }] },
    });
    expect(missing.out.details).toBe(
      "config/runtimeConfig/portMappings/0 must have required property 'containerPort'",
    );
    const none = await plugin("hello-portmap", "DEL", {});
    expect(none.out.msg).toBe("dataDir must be set to a directory");
  });
});

describe("hello-portmap", () => {
  it("refuses to run first in a chain: it needs a previous result", async () => {
    const r = await cnitool("add", "alone", "/run/netns/a");
    expect(r.code).toBe(1);
    expect(firstLine(r.stderr)).toBe(
      'Error: plugin type="hello-portmap" failed (add): hello-portmap must be chained after a plugin that returns an address',
    );
  });
});
