/**
 * Help and usage bytes. The texts are upstream cnitool's as its cobra 1.9.1 prints them
 * (checked against the Go tool built from upstream's cnitool/cmd with cobra 1.9.1 and pflag
 * 1.0.6), plus the lines of this port's additions: the commands attachments, conformance,
 * rootless, sweep, validate and version, the flags --cache-dir and gc's --valid. Upstream's `completion` command is absent.
 */
import { describe, expect, it } from "vitest";
import { usageOf } from "../../src/cli/usage.js";
import { runInProcess } from "./helpers.js";

const env = { NETCONFPATH: "/nonexistent", CNI_PATH: "" };
const run = (argv: string[]) => runInProcess(argv, env);

const rootLong = `CNI Tool is a simple program that executes a CNI configuration.
It will add, check, remove, gc, or get status of an interface in an already-created network namespace.
`;

const commandList = `Available Commands:
  add         Add network interface to a network namespace
  attachments List cached network attachments
  check       Check network interface in a network namespace
  conformance Check a plugin binary against the CNI spec's rules
  del         Delete network interface from a network namespace
  gc          Garbage collect network interfaces
  help        Help about any command
  rootless    Run a command as root of a sandbox of its own, without root
  status      Get status of network interfaces
  sweep       Remove what killed test runs left behind
  validate    Validate a network configuration against its plugins
  version     Print the CNI versions a plugin supports
`;

const rootUsage = `Usage:
  cnitool [command]

${commandList}
Flags:
      --cache-dir string   Result cache directory, shared with Go runtimes (default "/var/lib/cni")
  -h, --help               help for cnitool
  -i, --ifname string      Interface name (defaults to env var CNI_IFNAME or 'eth0')

Use "cnitool [command] --help" for more information about a command.
`;

const rootHelp = `${rootLong}\n${rootUsage}`;

const globalFlags = `Global Flags:
      --cache-dir string   Result cache directory, shared with Go runtimes (default "/var/lib/cni")
  -i, --ifname string      Interface name (defaults to env var CNI_IFNAME or 'eth0')
`;

const addHelp = `Add network interface to a network namespace.
This command will create a new network interface and add it to the specified network namespace.

Usage:
  cnitool add <network-name> <netns> [flags]

Flags:
  -h, --help   help for add

${globalFlags}`;

const gcHelp = `Garbage collect network interfaces.
This command will clean up unused network interfaces in the specified network namespace.
It prints each attachment it collected as <container-id>:<ifname>, one a line (--json: an object); --dry-run prints what it would collect and runs nothing.

Usage:
  cnitool gc <network-name> <netns> [flags]

Flags:
      --dry-run        Print what would be collected; run no plugin and remove nothing
  -h, --help           help for gc
      --json           Print what was collected as JSON
      --valid string   Attachments to keep, as <container-id>:<ifname>,...; without it, every attachment is collected

${globalFlags}`;

describe("root help", () => {
  it.each([
    [[]],
    [["--help"]],
    [["-h"]],
    [["help"]],
    [["-i", "eth1"]],
    [["--", "add", "n", "ns"]],
  ])("%j prints the root help on stdout, exit 0", async (argv) => {
    expect(await run(argv)).toEqual({ code: 0, stdout: rootHelp, stderr: "" });
  });

  it("a flag before the command swallows it as cobra's command search does: -h add is the root help", async () => {
    expect(await run(["-h", "add"])).toEqual({ code: 0, stdout: rootHelp, stderr: "" });
    expect(await run(["--help", "add"])).toEqual({ code: 0, stdout: rootHelp, stderr: "" });
  });
});

describe("command help", () => {
  it.each([
    [["add", "--help"]],
    [["add", "-h"]],
    [["help", "add"]],
    [["help", "add", "extra"]],
    [["add", "net", "ns", "--help"]],
    [["add", "net", "-h", "ns"]],
    [["add", "-hi", "eth1"]],
  ])("%j prints add's help on stdout, exit 0, and runs nothing", async (argv) => {
    expect(await run(argv)).toEqual({ code: 0, stdout: addHelp, stderr: "" });
  });

  it("gc's help lists its own flags (--valid, --dry-run, --json)", async () => {
    expect(await run(["gc", "--help"])).toEqual({ code: 0, stdout: gcHelp, stderr: "" });
  });

  it("--help=false does not ask for help: the command runs", async () => {
    const r = await run(["add", "--help=false"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: requires at least 2 arg\(s\), only received 0\n/);
  });

  it.each([
    ["check", "check <network-name> <netns>", "Check network interface in a network namespace."],
    ["del", "del <network-name> <netns>", "Delete network interface from a network namespace."],
    ["status", "status <network-name> <netns>", "Get status of network interfaces."],
    ["attachments", "attachments [container-id]", "List cached network attachments."],
    ["version", "version <plugin-type>", "Print the CNI versions a plugin supports."],
  ])("%s --help: its description, use line and flags", async (name, use, first) => {
    const r = await run([name, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n")[0]).toBe(first);
    expect(r.stdout).toContain(
      `\n\nUsage:\n  cnitool ${use} [flags]\n\nFlags:\n  -h, --help   help for ${name}\n\n${globalFlags}`,
    );
    expect(r.stdout.endsWith(globalFlags)).toBe(true);
  });

  it("validate --help: its description, use line and flags (--dir, --file, --json)", async () => {
    const r = await run(["validate", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("Validate a network configuration against its plugins.");
    expect(r.stdout).toContain(
      "\n\nUsage:\n  cnitool validate <network-name> | --file <path> | --dir <dir> [flags]\n\nFlags:\n" +
        "      --dir string    Validate every conf file of this dir as a runtime loads it, instead of one network of NETCONFPATH\n" +
        "      --file string   Validate this conf file (.conflist, or a single plugin's .conf) instead of a network of NETCONFPATH\n" +
        "  -h, --help          help for validate\n" +
        `      --json          With --dir: print the findings as JSON\n\n${globalFlags}`,
    );
  });

  it("help help describes the help command", async () => {
    expect(await run(["help", "help"])).toEqual({
      code: 0,
      stdout: `Help provides help for any command in the application.
Simply type cnitool help [path to command] for full details.

Usage:
  cnitool help [command] [flags]

Flags:
  -h, --help   help for help

${globalFlags}`,
      stderr: "",
    });
  });

  it("an unknown help topic: cobra's message and the root usage (without --help) on stderr, exit 0", async () => {
    const usage = rootUsage.replace("  -h, --help               help for cnitool\n", "");
    expect(await run(["help", "bogus"])).toEqual({
      code: 0,
      stdout: "",
      stderr: `Unknown help topic [\`bogus\`]\n${usage}`,
    });
    expect((await run(["help", "a", "b"])).stderr.split("\n")[0]).toBe(
      "Unknown help topic [`a` `b`]",
    );
    // Go's %#q falls back to double quotes for what a backquoted string cannot hold.
    expect((await run(["help", "x`y"])).stderr.split("\n")[0]).toBe('Unknown help topic ["x`y"]');
  });
});

describe("usage errors", () => {
  const addUsage = addHelp.slice(addHelp.indexOf("Usage:"));

  it("too few arguments: cobra's Error line, the usage and a blank line on stderr, then main's line; exit 1", async () => {
    expect(await run(["add", "net"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `Error: requires at least 2 arg(s), only received 1\n${addUsage}\nrequires at least 2 arg(s), only received 1\n`,
    });
  });

  it.each([
    ["add", 2],
    ["check", 2],
    ["del", 2],
    ["gc", 2],
    ["status", 2],
  ])("%s needs %i arguments", async (name, n) => {
    const r = await run([name]);
    expect(r.code).toBe(1);
    expect(r.stderr.startsWith(`Error: requires at least ${n} arg(s), only received 0\n`)).toBe(
      true,
    );
    expect(r.stderr.endsWith(`\nrequires at least ${n} arg(s), only received 0\n`)).toBe(true);
  });

  it.each([
    [["version"], "accepts 1 arg(s), received 0"],
    [["attachments", "a", "b"], "accepts at most 1 arg(s), received 2"],
  ])("%j: %s", async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(1);
    expect(r.stderr.startsWith(`Error: ${message}\nUsage:\n  cnitool ${argv[0]} `)).toBe(true);
    expect(r.stderr.endsWith(`\n\n${message}\n`)).toBe(true);
  });

  it.each([
    [["validate"], "give a network name, --file <path> or --dir <dir>"],
    [["validate", "a", "b"], "accepts at most 1 arg(s), received 2"],
    [
      ["validate", "a", "--file", "x.conflist"],
      "give one of a network name, --file and --dir, not several",
    ],
    [
      ["validate", "--dir", "d", "--file", "x.conflist"],
      "give one of a network name, --file and --dir, not several",
    ],
    [["validate", "a", "--json"], "--json goes with --dir"],
    [["validate", "--dir"], "flag needs an argument: --dir"],
    [
      ["validate", "--json=maybe", "--dir", "d"],
      'invalid argument "maybe" for "--json" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
  ])("validate %j: the error once, then the usage; exit 2", async (argv, message) => {
    const r = await run(argv);
    expect(r).toEqual({ code: 2, stdout: "", stderr: `Error: ${message}\n${usageOf("validate")}` });
  });

  it("an unknown command: cobra's two lines, then main's line; no usage", async () => {
    expect(await run(["bogus"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `Error: unknown command "bogus" for "cnitool"\nRun 'cnitool --help' for usage.\nunknown command "bogus" for "cnitool"\n`,
    });
  });

  it("an unknown command close to known ones gets cobra's suggestions (Levenshtein <= 2 or prefix)", async () => {
    const text = `unknown command "de" for "cnitool"\n\nDid you mean this?\n\tadd\n\tdel\n\tgc\n`;
    expect(await run(["de"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `Error: ${text}\nRun 'cnitool --help' for usage.\n${text}\n`,
    });
    expect((await run(["stat"])).stderr).toContain("Did you mean this?\n\tstatus\n\n");
    expect((await run(["ATTACH"])).stderr).toContain("Did you mean this?\n\tattachments\n\n");
    // help itself is never suggested, but del is one edit away.
    expect((await run(["hel"])).stderr).toContain("Did you mean this?\n\tdel\n\n");
    expect((await run(["xyzzy"])).stderr).not.toContain("Did you mean");
  });

  it("a flag without = before the command takes the command as its value (cobra): -i add net ns", async () => {
    expect((await run(["-i", "add", "net", "ns"])).stderr).toMatch(
      /^Error: unknown command "net" for "cnitool"\n/,
    );
  });

  it("the unknown command is found before flags are parsed", async () => {
    expect((await run(["bogus", "-x"])).stderr).toMatch(/^Error: unknown command "bogus"/);
  });

  it.each([
    [["--bogus"], "unknown flag: --bogus", undefined],
    [["add", "--bogus"], "unknown flag: --bogus", "add"],
    [["add", "-x", "a", "b"], "unknown shorthand flag: 'x' in -x", "add"],
    [["-x", "bogus"], "unknown shorthand flag: 'x' in -x", undefined],
    [["add", "-ix", "-y"], "unknown shorthand flag: 'y' in -y", "add"],
    [["-i"], "flag needs an argument: 'i' in -i", undefined],
    [["add", "net", "ns", "-i"], "flag needs an argument: 'i' in -i", "add"],
    [["--ifname"], "flag needs an argument: --ifname", undefined],
    [["gc", "--valid"], "flag needs an argument: --valid", "gc"],
    [["add", "--valid", "x"], "unknown flag: --valid", "add"],
    [["---x"], "bad flag syntax: ---x", undefined],
    [["--=x"], "bad flag syntax: --=x", undefined],
    [
      ["add", "--help=foo"],
      'invalid argument "foo" for "-h, --help" flag: strconv.ParseBool: parsing "foo": invalid syntax',
      "add",
    ],
  ])("%j: pflag's %s with the command's usage", async (argv, message, command) => {
    const r = await run(argv);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const usage = command === undefined ? rootUsage : (await run([command, "--help"])).stdout;
    expect(r.stderr).toBe(
      `Error: ${message}\n${usage.slice(usage.indexOf("Usage:"))}\n${message}\n`,
    );
  });
});
