/**
 * mini checks a container's name wherever a command takes one (run, exec, inspect, rm), before
 * it looks anything up or makes anything: libcni's container ID rule, which keeps `../../x`
 * from naming a file outside --root, and the hostname limit (64), which runc would only meet
 * after the networks were set up (`sethostname: invalid argument`). A bad name is a usage error,
 * exit 2. Needs neither root nor runc: nothing runs (mini.test.ts is the real run).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const miniBin = fileURLToPath(new URL("./mini", import.meta.url));

let dir: string;
let root: string;
let canary: string;
const canaryRecord = JSON.stringify({
  name: "canary",
  created: "2026-01-01T00:00:00.000Z",
  rootfs: "/nonexistent",
  command: ["canary-command"],
  networks: [],
  publish: [],
  detach: true,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mini-names-"));
  root = join(dir, "root");
  await mkdir(join(root, "containers"), { recursive: true });
  // Where `containers/../../canary.json` lands: outside the root.
  canary = join(dir, "canary.json");
  await writeFile(canary, canaryRecord);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function mini(args: string[]) {
  const globals = ["--root", root, "--conf-dir", join(dir, "net.d"), "--bin-dir", "/nonexistent"];
  return execa(miniBin, [...globals, ...args], { reject: false });
}

const rule = '1 to 64 letters, digits, "_", "." and "-", starting with a letter or digit';
const long = "a".repeat(65);

describe("mini refuses a bad container name on every command, before anything", () => {
  it.each([
    ["run", ["run", "--name", long, "/nonexistent", "--", "true"], `run: --name "${long}"`],
    [
      "run",
      ["run", "--name", "../../canary", "/nonexistent", "--", "true"],
      'run: --name "../../canary"',
    ],
    ["exec", ["exec", "../../canary", "--", "true"], 'exec: "../../canary"'],
    ["inspect", ["inspect", "../../canary"], 'inspect: "../../canary"'],
    ["inspect", ["inspect", long], `inspect: "${long}"`],
    ["rm", ["rm", "-f", "../../canary"], 'rm: "../../canary"'],
    ["rm", ["rm", "ok", long], `rm: "${long}"`],
  ])("%s %j", async (_, args, said) => {
    const r = await mini(args);
    expect(r.exitCode, String(r.stderr)).toBe(2);
    expect(String(r.stderr).split("\n")[0]).toBe(`mini: ${said}: ${rule}`);
    expect(r.stdout).toBe("");
    // Nothing was read outside the root, nor made in it.
    expect(await readFile(canary, "utf8")).toBe(canaryRecord);
    expect((await readdir(root)).sort()).toEqual(["containers"]);
    expect(await readdir(join(root, "containers"))).toEqual([]);
  });

  it("takes a name of 64, the hostname limit (the run goes on, to the missing conf dir)", async () => {
    const r = await mini(["run", "--name", "b".repeat(64), "/nonexistent", "--", "true"]);
    expect(r.exitCode, String(r.stderr)).toBe(125);
    expect(String(r.stderr)).toMatch(/^mini: .*net\.d/);
    expect(String(r.stderr)).not.toContain(rule);
  });
});
