/** Running the demo as a user would, and the steps it must show (shared by its two tests). */
import { access } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { expect } from "vitest";

const demo = fileURLToPath(new URL("../../examples/demo/demo.mjs", import.meta.url));

export async function runDemo(args: string[]) {
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
  /\$ cnitool --cache-dir \$DEMO\/cache gc --dry-run hello \S+green\ncnitool-[0-9a-f]{20}:eth0\n\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache gc hello \S+green\ncnitool-[0-9a-f]{20}:eth0\n\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache attachments\n\[\]\n/,
  /\$ cnitool --cache-dir \$DEMO\/cache status hello \S+green\n\n/,
];

export function expectSteps(stdout: string): void {
  let rest = stdout;
  for (const step of steps) {
    const match = step.exec(rest);
    expect(match, `step ${step} after:\n${rest.slice(0, 2000)}`).not.toBeNull();
    rest = rest.slice((match?.index ?? 0) + (match?.[0].length ?? 0));
  }
  expect(stdout).not.toContain("!! expected exit status");
}

export async function expectGone(stdout: string): Promise<void> {
  const dir = /^DEMO=(\S+)$/m.exec(stdout)?.[1];
  expect(dir).toMatch(/libcni-demo-/);
  await expect(access(dir ?? "")).rejects.toThrow();
}
