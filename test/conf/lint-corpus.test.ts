/**
 * The linter on what real configs contain: twelve conf files as flannel, calico, cilium (AWS
 * chaining), multus, kindnet, podman (bridge + portmap + bandwidth + tuning + firewall),
 * macvlan (a single `.conf`), ipvlan + sbr, host-device, vlan, dhcp and ptp write them give no
 * finding at all; each file of testdata/lint/mistakes gives exactly the finding
 * expected.json names for it.
 */
import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { lintNetworkList } from "../../src/conf/index.js";

const real = new URL("../../testdata/lint/real/", import.meta.url);
const mistakes = new URL("../../testdata/lint/mistakes/", import.meta.url);

const findings = (bytes: Uint8Array): string[] => {
  const { errors, warnings } = lintNetworkList(bytes);
  return [...errors, ...warnings].map(
    (f) => `${f.severity} ${JSON.stringify(f.pointer)}: ${f.message}`,
  );
};

describe("lint corpus", () => {
  it("real-world configs: at least twelve, no finding in any", async () => {
    const names = (await readdir(real)).sort();
    expect(names.length).toBeGreaterThanOrEqual(12);
    for (const name of names) {
      expect(findings(await readFile(new URL(name, real))), name).toEqual([]);
    }
  });

  it("each mistake gives exactly its finding", async () => {
    const expected = JSON.parse(
      await readFile(new URL("expected.json", mistakes), "utf8"),
    ) as Record<string, string[]>;
    const names = (await readdir(mistakes)).filter((n) => n !== "expected.json").sort();
    expect(names).toEqual(Object.keys(expected).sort());
    for (const name of names) {
      const got = findings(await readFile(new URL(name, mistakes)));
      expect(got, name).toEqual(expected[name]);
      expect(got, name).toHaveLength(1);
    }
  });
});
