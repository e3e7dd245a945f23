/**
 * cnitool's commands, help and usage texts, laid out as upstream's cobra (1.9) command line
 * prints them, so that scripts and people reading them see what they know from the Go tool.
 */
import { levenshtein } from "../internal/levenshtein.js";
import type { FlagSpec } from "./flags.js";

/** How many positional arguments a command takes (cobra's `MinimumNArgs`, `ExactArgs`, ...). */
interface ArgsRule {
  readonly min?: number;
  readonly max?: number;
}

/** One subcommand: cobra's `Use`, `Short` and `Long`, its arguments and its own flags. */
interface CommandSpec {
  readonly use: string;
  readonly short: string;
  readonly long: string;
  /** Undefined: any arguments (cobra's default for a command without subcommands). */
  readonly args?: ArgsRule;
  /** Besides `--help`. */
  readonly flags?: readonly FlagSpec[];
}

function stringFlag(name: string, usage: string, defValue = "", short?: string): FlagSpec {
  return { name, short, kind: "string", usage, defValue };
}

function boolFlag(name: string, usage: string): FlagSpec {
  return { name, kind: "bool", usage, defValue: "false" };
}

/** The flags every command accepts (cobra persistent flags of the root). */
const globalFlags: readonly FlagSpec[] = [
  stringFlag("cache-dir", "Result cache directory, shared with Go runtimes", "/var/lib/cni"),
  stringFlag("ifname", "Interface name (defaults to env var CNI_IFNAME or 'eth0')", "", "i"),
];

/** cobra's help flag, per command. */
function helpFlag(name: string): FlagSpec {
  return { name: "help", short: "h", kind: "bool", usage: `help for ${name}`, defValue: "false" };
}

const twoArgs: ArgsRule = { min: 2 };

/** The subcommands: upstream's five, this port's additions, and cobra's `help`. */
export const commands: Readonly<Record<string, CommandSpec>> = {
  add: {
    use: "add <network-name> <netns>",
    short: "Add network interface to a network namespace",
    long: "Add network interface to a network namespace.\nThis command will create a new network interface and add it to the specified network namespace.",
    args: twoArgs,
  },
  attachments: {
    use: "attachments [container-id]",
    short: "List cached network attachments",
    long: "List cached network attachments.\nThis command prints the attachments recorded in the result cache, all of them or those of one container.",
    args: { max: 1 },
  },
  check: {
    use: "check <network-name> <netns>",
    short: "Check network interface in a network namespace",
    long: "Check network interface in a network namespace.\nThis command will check if the network interface is properly configured in the specified network namespace.",
    args: twoArgs,
  },
  conformance: {
    use: "conformance <plugin>",
    short: "Check a plugin binary against the CNI spec's rules",
    long: "Check a plugin binary against the CNI spec's rules.\nThis command runs the plugin (a name is looked up in --path, else CNI_PATH) through every rule of the conformance checker, for each spec version it claims, in network namespaces of its own (root needed, or cnitool rootless -- cnitool conformance ...), and prints the report (text, JSON, or a Markdown table for the plugin's README). A rule the spec words as \"should\" warns instead of failing; a plugin call that hangs past --timeout is stopped and reported as a hang of its verb.\nExit status: 0 when no rule failed, 1 when one did, 2 for a bad command line or a check that could not run.",
    args: { min: 1, max: 1 },
    flags: [
      stringFlag(
        "config",
        "The plugin config to test with (a JSON object; a prevResult in it tests a chained plugin)",
      ),
      stringFlag(
        "format",
        "The report's format: text, json or markdown (a table for the plugin's README)",
        "text",
      ),
      boolFlag("json", "Print the report as JSON (--format json)"),
      stringFlag(
        "path",
        "Directories of the plugin and its delegated plugins (IPAM), as dir1:dir2 (default CNI_PATH)",
      ),
      stringFlag("rules", "Only these rules, as r1,r2 (default every rule)"),
      stringFlag(
        "timeout",
        "How long each plugin call may take, as a Go duration: 5s, 1m (default 30s)",
      ),
      stringFlag(
        "versions",
        "Only these spec versions, as a,b (default every version the plugin claims)",
      ),
    ],
  },
  del: {
    use: "del <network-name> <netns>",
    short: "Delete network interface from a network namespace",
    long: "Delete network interface from a network namespace.\nThis command will remove the network interface from the specified network namespace.",
    args: twoArgs,
  },
  gc: {
    use: "gc <network-name> <netns>",
    short: "Garbage collect network interfaces",
    long: "Garbage collect network interfaces.\nThis command will clean up unused network interfaces in the specified network namespace.\nIt prints each attachment it collected as <container-id>:<ifname>, one a line (--json: an object); --dry-run prints what it would collect and runs nothing.",
    args: twoArgs,
    flags: [
      boolFlag("dry-run", "Print what would be collected; run no plugin and remove nothing"),
      boolFlag("json", "Print what was collected as JSON"),
      stringFlag(
        "valid",
        "Attachments to keep, as <container-id>:<ifname>,...; without it, every attachment is collected",
      ),
    ],
  },
  help: {
    use: "help [command]",
    short: "Help about any command",
    long: "Help provides help for any command in the application.\nSimply type cnitool help [path to command] for full details.",
  },
  rootless: {
    use: "rootless -- <command> [args...]",
    short: "Run a command as root of a sandbox of its own, without root",
    long: "Run a command as root of a sandbox of its own, without root.\nThis command runs the command (after --) in a user namespace where the user is root, with network, mount and pid namespaces of its own: its network namespace is the plugins' host, /run/netns, /var/lib/cni and TMPDIR are private tmpfs dirs, and everything is gone when the command ends. cnitool conformance, a test runner using libcni/testing, or a plugin run by hand work there as under root, and nothing outside is touched. The kernel must allow unprivileged user namespaces; when it does not, the setting that refuses and its fix are said.\nExit status: the command's (128+n when signal n killed it), or 125 when the sandbox cannot be made.",
    args: { min: 1 },
  },
  status: {
    use: "status <network-name> <netns>",
    short: "Get status of network interfaces",
    long: "Get status of network interfaces.\nThis command will retrieve the status of network interfaces in the specified network namespace.",
    args: twoArgs,
  },
  sweep: {
    use: "sweep",
    short: "Remove what killed test runs left behind",
    long: "Remove what killed test runs left behind.\nThis command removes the network namespaces and temp dirs that libcni/testing (tempNetns, testHost) and conformance checks named for a process that is gone (lcnitest-..., lcnicheck-...), and prints each path it removed. Those of live processes, and anything named otherwise, are left alone.\nExit status: 0, or 1 when a leftover could not be removed (namespaces need root).",
    args: { max: 0 },
    flags: [
      stringFlag("netns-dir", "Where the namespaces are pinned, as dir1:dir2", "/run/netns"),
      stringFlag("tmp-dir", "Where the temp dirs are, as dir1:dir2 (default TMPDIR, else /tmp)"),
    ],
  },
  validate: {
    use: "validate <network-name> | --file <path> | --dir <dir>",
    short: "Validate a network configuration against its plugins",
    long: "Validate a network configuration against its plugins.\nThis command checks that every plugin exists and supports the configuration's version, and prints the capabilities the network accepts.\nIt also lints the configuration against the CNI spec and conventions: each finding goes to stderr as a JSON pointer and a message, and a lint error fails the command.\nWith --dir it validates every conf file of a dir as a runtime loads it (lint, plugins in CNI_PATH, their VERSION, duplicate networks and plugin types, files whose extension does not fit their content) and prints one finding a line, <file>:<JSON pointer>: <severity>: <message> (--json: an object with the findings).\nExit status: 0, 1 when a finding (or a failure) is an error, 2 for a bad command line.",
    args: { max: 1 },
    flags: [
      stringFlag(
        "dir",
        "Validate every conf file of this dir as a runtime loads it, instead of one network of NETCONFPATH",
      ),
      stringFlag(
        "file",
        "Validate this conf file (.conflist, or a single plugin's .conf) instead of a network of NETCONFPATH",
      ),
      boolFlag("json", "With --dir: print the findings as JSON"),
    ],
  },
  version: {
    use: "version <plugin-type>",
    short: "Print the CNI versions a plugin supports",
    long: "Print the CNI versions a plugin supports.\nThis command runs the plugin's VERSION command, found in CNI_PATH.",
    args: { min: 1, max: 1 },
  },
};

/** Whether `name` is a subcommand (own keys only: `constructor` is not a command). */
export function isCommand(name: string): boolean {
  return Object.hasOwn(commands, name);
}

/** cobra's positional-argument check; the message is cobra's. */
export function checkArgs(rule: ArgsRule | undefined, n: number): string | undefined {
  if (!rule) return undefined;
  const { min, max } = rule;
  if (min !== undefined && max !== undefined) {
    if (min === max && n !== min) return `accepts ${min} arg(s), received ${n}`;
    if (n < min || n > max) return `accepts between ${min} and ${max} arg(s), received ${n}`;
    return undefined;
  }
  if (min !== undefined && n < min) return `requires at least ${min} arg(s), only received ${n}`;
  if (max !== undefined && n > max) return `accepts at most ${max} arg(s), received ${n}`;
  return undefined;
}

/** Every flag a command accepts: its own, `--help`, then the global ones. */
export function flagsOf(name: string | undefined): FlagSpec[] {
  const own = name === undefined ? [] : [...(commands[name].flags ?? [])];
  return [...own, helpFlag(name ?? "cnitool"), ...globalFlags];
}

/** pflag's `FlagUsages`: sorted by name, names padded to one column, defaults appended. */
function flagTable(flags: readonly FlagSpec[]): string {
  const rows = [...flags]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((f) => {
      const names = f.short ? `  -${f.short}, --${f.name}` : `      --${f.name}`;
      const left = f.kind === "string" ? `${names} string` : names;
      const zero = f.kind === "bool" ? f.defValue === "false" : f.defValue === "";
      const shown = f.kind === "string" ? `"${f.defValue}"` : f.defValue;
      const def = zero ? "" : ` (default ${shown})`;
      return [left, `${f.usage}${def}`] as const;
    });
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, text]) => `${left.padEnd(width)}   ${text}`).join("\n");
}

const rootLong =
  "CNI Tool is a simple program that executes a CNI configuration.\nIt will add, check, remove, gc, or get status of an interface in an already-created network namespace.";

/**
 * The root command's usage, as cobra prints it (ends with a newline). cobra adds `--help` to a
 * command's flags only when it runs it, so the usage the help command prints for an unknown
 * topic has no `--help` line: `withHelpFlag` false.
 */
export function rootUsage(withHelpFlag = true): string {
  const flags = flagsOf(undefined).filter((f) => withHelpFlag || f.name !== "help");
  const names = Object.keys(commands).sort();
  const pad = Math.max(...names.map((n) => n.length), 11);
  return [
    "Usage:",
    "  cnitool [command]",
    "",
    "Available Commands:",
    ...names.map((name) => `  ${name.padEnd(pad)} ${commands[name].short}`),
    "",
    "Flags:",
    flagTable(flags),
    "",
    'Use "cnitool [command] --help" for more information about a command.',
    "",
  ].join("\n");
}

/** A subcommand's usage, as cobra prints it (ends with a newline). */
function commandUsage(name: string): string {
  const spec = commands[name];
  return [
    "Usage:",
    `  cnitool ${spec.use} [flags]`,
    "",
    "Flags:",
    flagTable([helpFlag(name), ...(spec.flags ?? [])]),
    "",
    "Global Flags:",
    flagTable(globalFlags),
    "",
  ].join("\n");
}

/** cobra's usage of the command `name` (the root when undefined). */
export function usageOf(name: string | undefined): string {
  return name === undefined ? rootUsage() : commandUsage(name);
}

/** cobra's help of the command `name` (the root when undefined): its description, then its usage. */
export function helpOf(name: string | undefined): string {
  return `${name === undefined ? rootLong : commands[name].long}\n\n${usageOf(name)}`;
}

/** cobra's "Did you mean this?" block for an unknown command (help is never suggested). */
export function suggestions(typed: string): string {
  const lower = typed.toLowerCase();
  // cobra's `ld(typed, name, ignoreCase=true) <= 2`, or a prefix.
  const found = Object.keys(commands)
    .sort()
    .filter((name) => name !== "help")
    .filter(
      (name) => levenshtein(lower, name.toLowerCase()) <= 2 || name.toLowerCase().startsWith(lower),
    );
  return found.length === 0
    ? ""
    : `\n\nDid you mean this?\n${found.map((n) => `\t${n}\n`).join("")}`;
}
