#!/usr/bin/env node
/**
 * The Debian table: runs the conformance checker (the built build/) on each plugin of Debian's
 * containernetworking-plugins with a config of testdata/conformance/debian/, and writes
 * docs/conformance.md: how to run the checker, its rules, the table (plugin × rule) and one
 * note per failure or warning. A finding without a note, or a note without its finding, fails
 * the run: the doc says why every cell is red, and nothing else.
 *
 *   npm run build && node scripts/conformance-table.mjs [--out docs/conformance.md] [--plugins dir]
 *
 * Root (namespaces), or a rootless sandbox (`cnitool rootless -- node scripts/…`): the same
 * bytes. test/rootless/debian-table.rootless.test.ts regenerates it rootless and compares.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
// Not an export of the package (yet): imported from the build by path.
const { checkPlugin, rules } = await import(join(root, "build/testing/conformance/index.js"));
const { stableText } = await import(join(root, "build/testing/conformance/report.js"));
const { checkNamePrefix, uniqueTestName } = await import(join(root, "build/testing/names.js"));

const { values: flags } = parseArgs({
  options: {
    out: { type: "string", default: join(root, "docs/conformance.md") },
    plugins: { type: "string", default: "/usr/lib/cni" },
  },
});
const pluginDir = flags.plugins;
// docs/conformance.md ships in the npm package, testdata/ does not: its links to the configs
// go to the repository (package.json's), so that they work from the tarball too.
const { repository } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const repositoryWeb = repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
const confDir = join(root, "testdata/conformance/debian");
const wrapperDir = join(confDir, "bin");
/** host-local's dataDir of every config is under it; emptied before each plugin. */
const dataRoot = "/tmp/libcni-conformance";

// The probe's namespace is named as the checker's are: one a killed run leaves is swept.
const probeNetns = await uniqueTestName("probe", checkNamePrefix);

/** Whether the kernel makes links of `kind` (the CI machine's may lack modules: no modprobe). */
function kernelHas(kind) {
  const ns = probeNetns;
  const ip = (...args) => execFileSync("ip", ["-n", ns, ...args], { stdio: "ignore" });
  const args = {
    ipvlan: ["link", "p", "type", "ipvlan", "mode", "l2"],
    vlan: ["link", "p", "type", "vlan", "id", "42"],
    vrf: ["type", "vrf", "table", "10"],
  }[kind];
  try {
    execFileSync("ip", ["netns", "add", ns], { stdio: "ignore" });
    ip("link", "add", "p", "type", "veth", "peer", "name", "q");
    ip("link", "add", "probe", ...args);
    return true;
  } catch {
    return false;
  } finally {
    try {
      execFileSync("ip", ["netns", "del", ns], { stdio: "ignore" });
    } catch {}
  }
}

const noModule = (kind, config) =>
  kernelHas(kind)
    ? undefined
    : `the kernel this table was made on makes no ${kind} links (${config}): every ADD fails with \`operation not supported\``;

/**
 * The rows: a config of testdata/conformance/debian/ each, the plugin run directly or through
 * bin/wrap (which gives it the links a node has; see that script), or not run, with why.
 */
const rows = [
  { row: "bridge", plugin: "bridge" },
  { row: "ptp", plugin: "ptp" },
  { row: "macvlan", plugin: "macvlan", wrapped: "parent link lcni-parent" },
  {
    row: "ipvlan",
    plugin: "ipvlan",
    wrapped: "parent link lcni-parent",
    notRun: noModule("ipvlan", "CONFIG_IPVLAN"),
  },
  {
    row: "vlan",
    plugin: "vlan",
    wrapped: "parent link lcni-parent",
    notRun: noModule("vlan", "CONFIG_VLAN_8021Q"),
  },
  { row: "host-device", plugin: "host-device", wrapped: "device lcni-dev0" },
  { row: "loopback", plugin: "loopback" },
  { row: "host-local", plugin: "host-local" },
  { row: "static", plugin: "static" },
  {
    row: "dhcp",
    plugin: "dhcp",
    notRun:
      "needs its daemon (`dhcp daemon`, a long-running process the plugin talks to over a socket) and a DHCP server on the pod's network",
  },
  { row: "portmap", plugin: "portmap" },
  { row: "firewall", plugin: "firewall" },
  { row: "bandwidth", plugin: "bandwidth", wrapped: "pod veth with the prevResult's address" },
  {
    row: "bandwidth-no-limits",
    plugin: "bandwidth",
    wrapped: "pod veth with the prevResult's address",
  },
  { row: "tuning", plugin: "tuning", wrapped: "pod veth with the prevResult's address" },
  { row: "sbr", plugin: "sbr", wrapped: "pod veth with the prevResult's address" },
  {
    row: "vrf",
    plugin: "vrf",
    wrapped: "pod veth with the prevResult's address",
    notRun: noModule("vrf", "CONFIG_NET_VRF"),
  },
];

const issue819 = "https://github.com/containernetworking/plugins/issues/819";
const issue1221 = "https://github.com/containernetworking/plugins/issues/1221";
const pr892 = "https://github.com/containernetworking/plugins/pull/892";

/** The chained plugins' CHECK and the checker's altered address: see the note. */

/** The shell lines that give a repro its pod. */
const env = (command, ns, ifname = "eth0") =>
  `CNI_COMMAND=${command} CNI_CONTAINERID=c CNI_NETNS=/run/netns/${ns} CNI_IFNAME=${ifname} CNI_PATH=/usr/lib/cni`;

/**
 * One note per failure, by `<row>/<rule>` (a note may cover several): a known upstream bug
 * (with its link), a real plugin bug (with a minimal repro), or a checker bug (with the fix).
 */
const noteList = [
  {
    keys: ["loopback/add-result"],
    kind: "plugin bug",
    text: 'loopback 1.1.1 prints its 0.3.0, 0.3.1 and 0.4.0 results without `ips[].version`, which those versions require (`"4"` or `"6"`). The plugin builds a 1.0.0 result and converts it down with the libcni vendored into it, which predates the converter setting the field (Go libcni 1.1.2\'s own converter sets it): a stale vendored library.',
    repro: `ip netns add lb
echo '{"cniVersion":"0.4.0","name":"lo","type":"loopback"}' |
  ${env("ADD", "lb", "lo")} /usr/lib/cni/loopback
# {"cniVersion":"0.4.0",...,"ips":[{"interface":0,"address":"127.0.0.1/8"},...]}: no "version"
ip netns del lb`,
  },
  {
    keys: ["loopback/add-ifname"],
    kind: "plugin bug, deliberate upstream",
    text: "loopback sets the interface name to `lo` whatever CNI_IFNAME says (`args.IfName = \"lo\" // ignore config, this only works for loopback`, still so on upstream's main): given `eth0`, it brings up `lo`, reports `lo` as the sandbox interface and succeeds, where the spec has a plugin that cannot use CNI_IFNAME return an error (Section 2, Parameters). Runtimes call it with CNI_IFNAME=lo, where nothing is wrong; the checker's pods use `eth0`. (0.1.0 and 0.2.0 results name no interface, and loopback makes none: nothing to see there.)",
    repro: `ip netns add lb
echo '{"cniVersion":"1.0.0","name":"lo","type":"loopback"}' |
  ${env("ADD", "lb")} /usr/lib/cni/loopback; echo "exit $?"
# {"cniVersion":"1.0.0","interfaces":[{"name":"lo",...,"sandbox":"/run/netns/lb"}],...} exit 0
ip netns del lb`,
  },
  {
    keys: ["loopback/check-wrong-prevresult"],
    kind: "plugin bug",
    text: "loopback's CHECK only looks at whether `lo` is up: it reads no address of the prevResult, so a CHECK naming an address the pod does not have succeeds. The spec has CHECK consult prevResult for the expected interfaces and addresses (Section 2, CHECK).",
    repro: `ip netns add lb
conf='{"cniVersion":"1.0.0","name":"lo","type":"loopback","prevResult":{"cniVersion":"1.0.0","interfaces":[{"name":"lo","sandbox":"/run/netns/lb"}],"ips":[{"interface":0,"address":"192.0.2.250/24"}]}}'
echo "$conf" | ${env("ADD", "lb", "lo")} /usr/lib/cni/loopback >/dev/null
echo "$conf" | ${env("CHECK", "lb", "lo")} /usr/lib/cni/loopback; echo "exit $?"
# exit 0, although lo has no 192.0.2.250/24
ip netns del lb`,
  },
  {
    keys: ["host-local/check-wrong-prevresult"],
    kind: "plugin bug",
    text: "host-local's CHECK looks up the container's allocation in its store and never compares it with the prevResult's addresses: a prevResult naming an address host-local did not hand out passes.",
    repro: `ip netns add hl
ipam='"ipam":{"type":"host-local","subnet":"10.99.7.0/24","dataDir":"/tmp/hl"}'
echo "{\\"cniVersion\\":\\"1.0.0\\",\\"name\\":\\"hl\\",\\"type\\":\\"host-local\\",$ipam}" | ${env("ADD", "hl")} /usr/lib/cni/host-local
echo "{\\"cniVersion\\":\\"1.0.0\\",\\"name\\":\\"hl\\",\\"type\\":\\"host-local\\",$ipam,\\"prevResult\\":{\\"cniVersion\\":\\"1.0.0\\",\\"ips\\":[{\\"address\\":\\"192.0.2.250/24\\"}]}}" |
  ${env("CHECK", "hl")} /usr/lib/cni/host-local; echo "exit $?"
# exit 0: host-local handed out 10.99.7.2, not 192.0.2.250
ip netns del hl; rm -r /tmp/hl`,
  },
  {
    keys: ["static/check-wrong-prevresult"],
    kind: "plugin bug",
    text: "static's CHECK does not compare the prevResult's addresses with the ones its config assigns: a prevResult naming another address passes.",
    repro: `ip netns add st
conf='{"cniVersion":"1.0.0","name":"st","type":"static","ipam":{"type":"static","addresses":[{"address":"10.99.8.2/24"}]},"prevResult":{"cniVersion":"1.0.0","ips":[{"address":"192.0.2.250/24"}]}}'
echo "$conf" | ${env("CHECK", "st")} /usr/lib/cni/static; echo "exit $?"
# exit 0: the config assigns 10.99.8.2/24
ip netns del st`,
  },
  {
    keys: ["host-device/del-idempotent", "host-device/del-without-add"],
    kind: "plugin bug",
    text: 'host-device\'s DEL fails (`failed to find "eth0": Link not found`) when the pod has no interface of that name: a second DEL, or a DEL of an attachment never added, fails where the spec has it succeed (Section 2, DEL).',
    repro: `ip netns add hd
echo '{"cniVersion":"1.0.0","name":"hd","type":"host-device","device":"nosuchdev"}' |
  ${env("DEL", "hd")} /usr/lib/cni/host-device; echo "exit $?"
# {"code": 999, "msg": "failed to find \\"eth0\\": Link not found"} exit 1
ip netns del hd`,
  },
  {
    keys: ["host-device/del-netns-gone"],
    kind: "plugin bug",
    text: "host-device's DEL fails when CNI_NETNS no longer exists (`failed to open netns ...: no such file or directory`) where the spec has it succeed (Section 2, DEL); a runtime retrying the DEL never gets past it.",
    repro: `echo '{"cniVersion":"1.0.0","name":"hd","type":"host-device","device":"nosuchdev"}' |
  ${env("DEL", "gone")} /usr/lib/cni/host-device; echo "exit $?"
# failed to open netns "/run/netns/gone": failed to Statfs ...: no such file or directory; exit 1`,
  },
  {
    keys: ["portmap/check-after-add"],
    kind: "known upstream bug",
    link: issue819,
    text: "portmap's CHECK looks for its DNAT chain in ip6tables whenever ip6tables works, also when the attachment has no IPv6 address and ADD made no IPv6 chain, and fails. (portmap's `check-wrong-prevresult` PASS says little for the same reason: every CHECK fails.)",
  },
  {
    keys: ["bandwidth-no-limits/check-after-add", "bandwidth-no-limits/error-format"],
    kind: "known upstream bug",
    link: issue1221,
    text: "bandwidth's CHECK reads the limits without looking whether there are any: with no bandwidth args in the config, ADD passes the prevResult on and CHECK dereferences the nil limit and panics (exit 2, no error object on stdout, hence error-format too). Fixed upstream by containernetworking/plugins#1222 (1.9.1).",
  },
  {
    keys: ["sbr/del-idempotent", "sbr/del-without-add"],
    kind: "known upstream bug",
    link: pr892,
    text: "sbr's DEL fails (`Failed to get link eth0: Link not found`) when the pod's interface is gone: a second DEL, or a DEL of an attachment never added. Fixed upstream by containernetworking/plugins#892 (\"Ignore LinkNotFoundError during cmdDel\"), after 1.1.1.",
  },
  {
    keys: ["sbr/del-netns-gone"],
    kind: "plugin bug",
    text: "sbr's DEL fails when CNI_NETNS no longer exists: before entering the namespace it opens the netns path to lock it, creating an empty regular file there, and then refuses that file as no namespace (`unknown FS magic`). The spec has DEL succeed without the namespace (Section 2, DEL); the stray file is left behind in /run/netns.",
    repro: `echo '{"cniVersion":"1.0.0","name":"sb","type":"sbr","prevResult":{"cniVersion":"1.0.0","interfaces":[{"name":"eth0","sandbox":"/run/netns/gone"}],"ips":[]}}' |
  ${env("DEL", "gone")} /usr/lib/cni/sbr; echo "exit $?"
# unknown FS magic on "/run/netns/gone": ...; exit 1, and /run/netns/gone is now an empty file
rm -f /run/netns/gone`,
  },
];
const notes = Object.fromEntries(noteList.flatMap((n) => n.keys.map((k) => [k, n])));

/** The evidence without the names that change from run to run (the checker's, iptables'). */
function stable(text) {
  return stableText(text).replace(
    /\bCNI-(DN|HOSTPORT-DNAT|SN|HOSTPORT-SETMARK)-[0-9a-f]{10,}/g,
    "CNI-$1-…",
  );
}

const clip = (text, max = 400) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A row's report; its host-local data (`<dataRoot>/<row>`, its config's alone) emptied first. */
async function checkRow(r) {
  if (r.notRun !== undefined) return { ...r, report: undefined };
  rmSync(join(dataRoot, r.row), { recursive: true, force: true });
  const path = r.wrapped ? join(wrapperDir, r.plugin) : join(pluginDir, r.plugin);
  const config = readFileSync(join(confDir, `${r.row}.json`), "utf8");
  const started = Date.now();
  const report = await checkPlugin(path, { config, path: [pluginDir] });
  process.stderr.write(
    `${r.row}: ${report.results.filter((x) => x.status === "fail").length} failed (${Date.now() - started} ms)\n`,
  );
  return { ...r, report };
}

// Two rows at a time: a check mostly waits on its plugins' short processes, one after another,
// and each has its own namespaces and data, so the table is the same bytes.
rmSync(dataRoot, { recursive: true, force: true });
const reports = new Array(rows.length);
let nextRow = 0;
const lane = async () => {
  while (nextRow < rows.length) {
    const at = nextRow++;
    reports[at] = await checkRow(rows[at]);
  }
};
await Promise.all([lane(), lane()]);
rmSync(dataRoot, { recursive: true, force: true });

/** A rule's cell: PASS, n/a, or FAIL / WARN with the versions it failed or warned in. */
function cell(report, rule) {
  const results = report.results.filter((x) => x.rule === rule);
  if (results.length === 0) return "n/a";
  const found = ["fail", "warn"].flatMap((status) => {
    const hit = results.filter((x) => x.status === status);
    if (hit.length === 0) return [];
    const versions = hit.map((x) => x.version).filter((v) => v !== "");
    const mark = status.toUpperCase();
    return [versions.length === 0 ? mark : `${mark} ${versions.join(", ")}`];
  });
  if (found.length > 0) return found.join("; ");
  return results.some((x) => x.status === "pass") ? "PASS" : "n/a";
}

const isFinding = (x) => x.status === "fail" || x.status === "warn";
const failures = [];
const missing = [];
for (const { row, report } of reports) {
  if (report === undefined) continue;
  for (const rule of rules) {
    const failed = report.results.filter((x) => x.rule === rule.id && isFinding(x));
    if (failed.length === 0) continue;
    const key = `${row}/${rule.id}`;
    if (notes[key] === undefined) missing.push(`${key}: ${failed[0].evidence}`);
    failures.push({ key, row, rule: rule.id, failed });
  }
}
const stale = Object.keys(notes).filter((k) => !failures.some((f) => f.key === k));
if (missing.length > 0 || stale.length > 0) {
  for (const m of missing) process.stderr.write(`a finding without a note: ${m}\n`);
  for (const k of stale) process.stderr.write(`a note without its finding: ${k}\n`);
  process.exit(1);
}

const anchor = (key) => key.replace(/[^a-z0-9]+/g, "-");
const header = ["plugin", "versions", ...rules.map((r) => `\`${r.id}\``)];
const lines = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
for (const { row, wrapped, notRun, report } of reports) {
  const name = wrapped ? `${row}\\*` : row;
  if (report === undefined) {
    lines.push(`| ${name} | not run: ${notRun} |${" |".repeat(rules.length)}`);
    continue;
  }
  const cells = rules.map((rule) => {
    const text = cell(report, rule.id);
    const key = `${row}/${rule.id}`;
    return /^(FAIL|WARN)/.test(text) ? `[${text}](#${anchor(key)})` : text;
  });
  lines.push(`| ${name} | ${report.versions.join(", ")} | ${cells.join(" | ")} |`);
}

const noteLines = noteList.flatMap((note) => {
  const label =
    note.link === undefined
      ? note.kind
      : `${note.kind}, [${note.link.replace("https://github.com/", "").replace(/\/(issues|pull)\//, "#")}](${note.link})`;
  const where = note.keys.map((key) => {
    const f = failures.find((x) => x.key === key);
    const versions = f.failed.map((x) => x.version).filter((v) => v !== "");
    const warned = f.failed.every((x) => x.status === "warn") ? ", a warning" : "";
    return `${key}${versions.length > 0 ? ` (${versions.join(", ")}${warned})` : warned ? ` (${warned.slice(2)})` : ""}`;
  });
  const seen = failures.find((x) => x.key === note.keys[0]).failed[0].evidence;
  const out = [
    `### ${note.keys.join(", ")}`,
    "",
    ...note.keys.map((key) => `<a id="${anchor(key)}"></a>`),
    `**${label}**: ${where.join("; ")}. ${note.text}`,
    "",
    `The checker saw: ${clip(stable(seen)).replaceAll("|", "\\|")}`,
    "",
  ];
  if (note.repro !== undefined) out.push("```sh", note.repro, "```", "");
  return out;
});

const wrappedRows = reports.filter((r) => r.wrapped && r.report !== undefined);
const doc = `# Plugin conformance

<!-- Generated by scripts/conformance-table.mjs; test/rootless/debian-table.rootless.test.ts fails when it is stale. -->

The conformance checker runs a plugin binary, of any language, through the rules of
[SPEC.md 1.1.0](https://github.com/containernetworking/cni/blob/main/SPEC.md), for each spec
version the plugin claims, in network namespaces of its own (root needed, or a rootless
sandbox: below): a host namespace per check, where the plugin runs, and a fresh pod namespace
per rule. A failing rule is a result, with what was seen as evidence.

## Running it

From the command line (\`cnitool\`, this package's bin):

\`\`\`sh
cnitool conformance <plugin> [--config conf.json] [--versions 0.4.0,1.0.0] [--rules add-result,del-idempotent] [--path dir1:dir2] [--timeout 30s] [--format text|json|markdown]
\`\`\`

A plugin given by name, and the plugins it delegates to (IPAM), are looked up in \`--path\`,
else \`CNI_PATH\` (delegated ones then in the plugin's directory too); with neither, give the
plugin's path (\`/opt/cni/bin/bridge\`). \`--config\` is the plugin config to test with (default
\`{"type": "<plugin>"}\`; its \`cniVersion\` and \`name\` are set by the checker for each
version; a \`prevResult\` in it tests the plugin as a chained one). Exit status 0 when no rule
failed (warnings fail nothing), 1 when one did, 2 for a bad command line or a check that could
not run.

Without root, where the kernel allows unprivileged user namespaces (Debian 12, Fedora, most
distributions), run it in a rootless sandbox: the plugin's host side is then the sandbox's own
network namespace, and nothing outside it is touched
([testing.md](testing.md#without-root)):

\`\`\`sh
cnitool rootless -- cnitool conformance /usr/lib/cni/bridge --config bridge.json
\`\`\`

A rule the spec words with "must" fails (FAIL); one it words with "should" warns (WARN), and
the report says which is which (each result's \`level\`). A plugin call still running after
\`--timeout\` (default 30s; \`callTimeoutMs\`, at most 596h31m23.647s, 2147483647 ms, the longest
a Node timer waits: a longer one is refused as a bad flag, exit 2) is stopped (SIGTERM to its
process group, SIGKILL a second later) and reported as a hang of its verb, VERSION's too. After every call the checker
looks for processes the plugin left running (in its process group, or in the check's
namespaces), ends them and reports them (\`no-leftover-processes\`). The process group is the
one the plugin led, told by its start time: a group whose id another process holds now (the
plugin's pid reused) is never signalled ([reliability.md](reliability.md#what-the-checker-ends)).

\`--format json\` (or \`--json\`) prints the \`ConformanceReport\`, with the outcomes counted per
spec version (\`counts\`); \`--format markdown\` prints a table of rules by spec version, the
counts and the findings, for the plugin's README: it holds no paths, pids or names of the
checker's own, so CI can diff it (\`formatReport(report, { format: "markdown" })\`).

From a test suite (vitest), with \`checkPlugin\` and \`formatReport\`:

\`\`\`ts
import { checkPlugin, formatReport } from "libcni/testing";
import { expect, it } from "vitest";

it("my-plugin conforms", async () => {
  const report = await checkPlugin("./bin/my-plugin", {
    config: { type: "my-plugin", ipam: { type: "host-local", subnet: "10.1.0.0/24" } },
    path: ["/usr/lib/cni"],
  });
  expect(report.passed, formatReport(report)).toBe(true);
});
\`\`\`

## The rules

| rule | level | section of SPEC.md 1.1.0 | checks that |
| --- | --- | --- | --- |
${rules.map((r) => `| \`${r.id}\` | ${r.level} | ${r.section} | ${r.title}${r.since ? ` (from ${r.since})` : ""} |`).join("\n")}

## Debian's containernetworking-plugins

Debian 12's \`containernetworking-plugins\` (1.1.1) in \`/usr/lib/cni\`, each with its config in
[testdata/conformance/debian/](${repositoryWeb}/tree/main/testdata/conformance/debian/) (IPAM: host-local, its
\`dataDir\` under \`${dataRoot}\`). Regenerate with
\`npm run build && node scripts/conformance-table.mjs\` (root, a minute or so), or as a user
who is not root with \`cnitool rootless -- node scripts/conformance-table.mjs\`: the same
table, byte for byte (test/rootless/debian-table.rootless.test.ts).

A cell is PASS (every version it ran with passed), n/a (it applies to none of them, or the
plugin gives it nothing to check: see the rule), or FAIL (a "must" broken) or WARN (a
"should") with the versions it failed or warned in, linked to its note below. The chained
plugins (portmap, firewall, bandwidth, tuning, sbr, vrf) are given a prevResult
(\`10.99.9.2/24\` on the pod's \`eth0\`, host side \`lcni-veth0\`) and so run from 0.3.0. No
Debian plugin claims 1.1.0, so \`gc-valid-attachments\`, \`gc-partial-list\`, \`gc-concurrent\`
and \`status\` apply to none.

\\* Run through [bin/wrap](${repositoryWeb}/blob/main/testdata/conformance/debian/bin/wrap), which gives the plugin what a
node has and the checker's fresh namespaces lack, in the checker's host namespace:
${wrappedRows.map((r) => `${r.row}: ${r.wrapped}`).join("; ")}.

${lines.join("\n")}

## The failures and warnings

${noteLines.join("\n").trimEnd()}
`;
writeFileSync(flags.out, doc);
process.stderr.write(`wrote ${flags.out}\n`);
