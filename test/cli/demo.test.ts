/**
 * `npm run demo` and `npm run demo -- --real` (examples/demo/demo.mjs), run as a user would:
 * every step is printed with the expected outcome, and nothing is left behind.
 *
 * The real variant needs root and Debian's containernetworking-plugins (as CI has): without
 * them it fails, it does not skip.
 */
import { access, readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const demo = fileURLToPath(new URL("../../examples/demo/demo.mjs", import.meta.url));

async function runDemo(args: string[]) {
  const r = await execa(process.execPath, [demo, ...args], {
    reject: false,
    timeout: 240_000,
    stripFinalNewline: false,
    env: { CAP_ARGS: "[", CNI_ARGS: "x", CNI_IFNAME: "bad/name" },
  });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** The demo's steps, in order: the commands it must have shown. */
const steps = [
  /\$ cnitool --cache-dir \$DEMO\/cache validate hello\n/,
  /\$ CAP_ARGS='\{"portMappings":\[\{"hostPort":8080,"containerPort":80,"protocol":"tcp"\}\]\}' cnitool --cache-dir \$DEMO\/cache add hello \S+blue\n\{\n {4}"cniVersion"/,
  /\$ cnitool --cache-dir \$DEMO\/cache add hello \S+green\n\{\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache attachments\n\[\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache check hello \S+blue\n\n/,
  /cnitool --cache-dir \$DEMO\/cache del hello \S+blue\n\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache check hello \S+blue\nError: .+\nUsage:\n {2}cnitool check <network-name> <netns> \[flags\]\n[\s\S]+?\(exit status 1\)\n\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache gc --valid cnitool-[0-9a-f]{20}:eth0 hello \S+green\n\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache attachments cnitool-[0-9a-f]{20}\n\[\n {4}\{\n {8}"containerID": "cnitool-[0-9a-f]{20}",\n {8}"ifName": "eth0",\n {8}"netNS": "\S+green",\n {8}"network": "hello"\n {4}\}\n\]\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache gc hello \S+green\n\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache attachments\n\[\]\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache status hello \S+green\n\n/,
];

function expectSteps(stdout: string): void {
  let rest = stdout;
  for (const step of steps) {
    const match = step.exec(rest);
    expect(match, `step ${step} after:\n${rest.slice(0, 2000)}`).not.toBeNull();
    rest = rest.slice((match?.index ?? 0) + (match?.[0].length ?? 0));
  }
  expect(stdout).not.toContain("!! expected exit status");
}

async function expectGone(stdout: string): Promise<void> {
  const dir = /^DEMO=(\S+)$/m.exec(stdout)?.[1];
  expect(dir).toMatch(/libcni-demo-/);
  await expect(access(dir ?? "")).rejects.toThrow();
}

describe("npm run demo", () => {
  it("takes the example network through every step with the example plugins; the caller's CNI env is ignored", async () => {
    const r = await runDemo([]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectSteps(r.stdout);
    expect(r.stdout).toContain('"address": "10.22.0.2/24"');
    expect(r.stdout).toContain('"address": "10.22.0.3/24"');
    expect(r.stdout).toMatch(/0-hello-net\/hello\/10\.22\.0\.2: cnitool-[0-9a-f]{20} eth0\n/);
    expect(r.stdout).toContain(
      '"mappings":[{"containerPort":80,"hostPort":8080,"protocol":"tcp"}]',
    );
    expect(r.stdout).toMatch(/# after gc: plugin state under \$DEMO\/state\n {2}\(none left\)\n/);
    expect(r.stdout).toMatch(/\ndemo done \(example plugins\); temporary files removed\n$/);
    await expectGone(r.stdout);
  }, 300_000);
});

describe("npm run demo -- --real", () => {
  it("does the same with bridge + host-local + portmap + tuning in namespaces it creates and removes", async () => {
    const r = await runDemo(["--real"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectSteps(r.stdout);
    expect(r.stdout).toMatch(/ {2}blue: eth0@\S+ UP 10\.22\.0\.2\/24, mtu 1400, somaxconn 512\n/);
    expect(r.stdout).toMatch(/ {2}green: eth0@\S+ UP 10\.22\.0\.3\/24, mtu 1400, somaxconn 512\n/);
    expect(r.stdout).toContain("# blue pings its gateway 10.22.0.1: ok\n");
    expect(r.stdout).toMatch(
      /DNAT rules for port 8080 in \S+: 3\n[\s\S]*--to-destination 10\.22\.0\.2:80\n/,
    );
    expect(r.stdout).toMatch(
      /# after gc: [^\n]+\n {2}blue: no eth0\n {2}green: no eth0\n[^\n]+: 0\n/,
    );
    expect(r.stdout).toMatch(
      /\ndemo done \(real plugins\); temporary files and namespaces removed\n$/,
    );
    await expectGone(r.stdout);
    const hostNs = /in the namespace (\S+)\)/.exec(r.stdout)?.[1] ?? "";
    expect(hostNs).toMatch(/^libcni-demo-\d+-host$/);
    const left = (await readdir("/run/netns").catch(() => [])).filter((n) =>
      n.startsWith(hostNs.replace(/-host$/, "")),
    );
    expect(left).toEqual([]);
  }, 300_000);
});
