/**
 * `npm run demo -- --real`: the demo with Debian's bridge, host-local, portmap and tuning in
 * namespaces it creates. Needs root and containernetworking-plugins (as CI has): without them
 * it fails, it does not skip.
 */
import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { expectGone, expectSteps, runDemo } from "./demo-run.js";

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
