/**
 * The linter over the repository's conflists: the conformance corpus (what upstream's parser
 * rejects is always a lint error) and the conf goldens, whose findings are spelled out.
 */
import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { lintNetworkList, networkConfFromBytes } from "../../src/conf/index.js";

const corpus = new URL("../../testdata/conformance/conflists/", import.meta.url);
const confData = new URL("../../testdata/conf/", import.meta.url);

const lines = (bytes: Uint8Array) => {
  const { errors, warnings } = lintNetworkList(bytes);
  return [...errors, ...warnings].map((f) => `${f.severity} ${f.pointer}: ${f.message}`);
};

describe("the conformance corpus (testdata/conformance/conflists)", async () => {
  const names = (await readdir(corpus)).filter((n) => n.endsWith(".conflist")).sort();

  it("holds the cases this test reads", () => {
    expect(names.length).toBeGreaterThanOrEqual(74);
  });

  it("every list upstream's parser rejects has at least one lint error", async () => {
    const rejected: string[] = [];
    for (const name of names) {
      const bytes = await readFile(new URL(name, corpus));
      try {
        networkConfFromBytes(bytes);
      } catch {
        rejected.push(name);
        expect(lintNetworkList(bytes).errors, name).not.toEqual([]);
      }
    }
    // The lists this test is about: none rejected would check nothing.
    expect(rejected).toEqual([
      "15-cniVersions-bad-entry.conflist",
      "21-disableCheck-yes.conflist",
      "22-disableCheck-number.conflist",
      "23-disableCheck-null.conflist",
      "27-plugins-empty.conflist",
      "28-plugins-object.conflist",
      "29-plugins-null.conflist",
      "30-plugin-no-type.conflist",
      "31-plugin-type-number.conflist",
      "32-plugin-not-object.conflist",
      "33-plugin-capabilities-wrong-type.conflist",
      "34-plugin-ipam-wrong-type.conflist",
      "35-plugin-dns-wrong-type.conflist",
      "36-name-missing.conflist",
      "37-name-number.conflist",
      "40-cniVersion-number.conflist",
      "45-top-level-array.conflist",
      "46-top-level-string.conflist",
      "47-truncated.conflist",
      "48-invalid-char.conflist",
      "49-empty-file.conflist",
      "50-trailing-garbage.conflist",
      "51-bom.conflist",
      "63-number-out-of-range.conflist",
    ]);
  });

  it("lists that parse but cannot work are exactly the name and version cases", async () => {
    const faulted: string[] = [];
    for (const name of names) {
      const bytes = await readFile(new URL(name, corpus));
      try {
        networkConfFromBytes(bytes);
      } catch {
        continue;
      }
      if (lintNetworkList(bytes).errors.length > 0) faulted.push(name);
    }
    expect(faulted).toEqual([
      "38-name-empty.conflist",
      "39-name-invalid-chars.conflist",
      "41-cniVersion-garbage.conflist",
      "42-cniVersion-4-parts.conflist",
      "43-cniVersion-plus-leading-zero.conflist",
      "44-cniVersion-short.conflist",
    ]);
  });

  it("the lint of a list and of its parsed form agree", async () => {
    for (const name of names) {
      const bytes = await readFile(new URL(name, corpus));
      let list: ReturnType<typeof networkConfFromBytes>;
      try {
        list = networkConfFromBytes(bytes);
      } catch {
        continue;
      }
      // A list without plugins is an error once parsed (nothing can add them any more).
      if (list.plugins.length === 0) continue;
      expect(lintNetworkList(list), name).toEqual(lintNetworkList(bytes));
    }
  });

  it("spells out a few: extra top-level keys, case variants, reserved keys", async () => {
    const read = (n: string) => readFile(new URL(n, corpus));
    expect(lines(await read("71-extra-top-level-keys.conflist"))).toEqual([
      "warning /foo: unknown top-level key (not in the CNI spec)",
      "warning /runtimeConfig: unknown top-level key (not in the CNI spec)",
    ]);
    expect(lines(await read("55-both-case-type.conflist"))).toEqual([
      'warning /plugins/0/TYPE: "TYPE" and "type" are both set: Go libcni reads them as one field, the one written last winning',
    ]);
    expect(lines(await read("69-user-prevResult-and-args.conflist"))).toEqual([
      "warning /plugins/0/args: args is reserved: the runtime writes it at execution time",
      "warning /plugins/0/prevResult: prevResult is set by the runtime from the previous plugin's result",
    ]);
    expect(lines(await read("68-all-well-known-capabilities.conflist"))).toEqual([]);
  });
});

describe("testdata/conf", () => {
  it("50-whatever.conflist (upstream's LoadNetworkConf test list): clean", async () => {
    expect(lines(await readFile(new URL("50-whatever.conflist", confData)))).toEqual([]);
  });

  it("unknown-fields.conflist: its list extension, plugin name and version, case variants, runtimeConfig", async () => {
    expect(lines(await readFile(new URL("unknown-fields.conflist", confData)))).toEqual([
      'warning /disableGC: disableGC is a string: the spec says a boolean (Go libcni reads "true"/"false" in any case, other runtimes may not)',
      "warning /plugins/0/cniVersion: a plugin's cniVersion is replaced by the list's version at run time",
      'warning /plugins/1/Capabilities: "Capabilities" is read as "capabilities" by Go libcni (case-insensitive), but the spec\'s key is "capabilities"',
      'warning /plugins/1/Type: "Type" is read as "type" by Go libcni (case-insensitive), but the spec\'s key is "type"',
      "warning /plugins/1/runtimeConfig: runtimeConfig is reserved: the runtime writes it from the capabilities and replaces this one",
      "warning /x-list-extension: unknown top-level key (not in the CNI spec)",
    ]);
  });
});
