/**
 * cnitool's help and usage texts, laid out as upstream's cobra command line prints them, so
 * that scripts and people reading them see what they know from the Go tool.
 */

/** One subcommand: its cobra `Use` line, its one-line summary and its long description. */
export interface CommandSpec {
  readonly use: string;
  readonly short: string;
  readonly long: string;
  /** Extra local flags, as cobra's flag table lines (name column, then description). */
  readonly flags?: readonly [string, string][];
}

const ifnameFlag: [string, string] = [
  "-i, --ifname string",
  "Interface name (defaults to env var CNI_IFNAME or 'eth0')",
];
const cacheDirFlag: [string, string] = [
  "    --cache-dir string",
  "Result cache directory (default /var/lib/cni; an extension of upstream's cnitool)",
];

/** The subcommands: upstream's five, then this port's additions. */
export const commands: Readonly<Record<string, CommandSpec>> = {
  add: {
    use: "add <network-name> <netns>",
    short: "Add network interface to a network namespace",
    long: "Add network interface to a network namespace.\nThis command will create a new network interface and add it to the specified network namespace.",
  },
  attachments: {
    use: "attachments [container-id]",
    short: "List cached network attachments",
    long: "List cached network attachments.\nThis command prints the attachments recorded in the result cache, optionally only those of one container.",
  },
  check: {
    use: "check <network-name> <netns>",
    short: "Check network interface in a network namespace",
    long: "Check network interface in a network namespace.\nThis command will check if the network interface is properly configured in the specified network namespace.",
  },
  del: {
    use: "del <network-name> <netns>",
    short: "Delete network interface from a network namespace",
    long: "Delete network interface from a network namespace.\nThis command will remove the network interface from the specified network namespace.",
  },
  gc: {
    use: "gc <network-name> <netns>",
    short: "Garbage collect network interfaces",
    long: "Garbage collect network interfaces.\nThis command will clean up unused network interfaces in the specified network namespace.",
    flags: [
      [
        "    --valid string",
        "Attachments to keep, as <container-id>:<ifname>,... (default: none, so every attachment is collected)",
      ],
    ],
  },
  status: {
    use: "status <network-name> <netns>",
    short: "Get status of network interfaces",
    long: "Get status of network interfaces.\nThis command will retrieve the status of network interfaces in the specified network namespace.",
  },
  validate: {
    use: "validate <network-name>",
    short: "Validate a network configuration against its plugins",
    long: "Validate a network configuration against its plugins.\nThis command checks that every plugin exists and supports the configuration's version, and prints the capabilities the network accepts.",
  },
  version: {
    use: "version <plugin-type>",
    short: "Print the CNI versions a plugin supports",
    long: "Print the CNI versions a plugin supports.\nThis command runs the plugin's VERSION command, found in CNI_PATH.",
  },
};

const rootLong =
  "CNI Tool is a simple program that executes a CNI configuration.\nIt will add, check, remove, gc, or get status of an interface in an already-created network namespace.";

/** cobra's flag table: names padded to a common column, three spaces before descriptions. */
function flagTable(rows: readonly [string, string][]): string {
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, text]) => `  ${name.padEnd(width)}   ${text}`).join("\n");
}

/** The root command's usage, as cobra prints it (ends with a newline). */
export function rootUsage(): string {
  const names = [...Object.keys(commands), "help"].sort();
  const pad = Math.max(...names.map((n) => n.length), 11);
  const lines = names.map((name) => {
    const short = name === "help" ? "Help about any command" : commands[name].short;
    return `  ${name.padEnd(pad)} ${short}`;
  });
  return [
    "Usage:",
    "  cnitool [command]",
    "",
    "Available Commands:",
    ...lines,
    "",
    "Flags:",
    flagTable([cacheDirFlag, ["-h, --help", "help for cnitool"], ifnameFlag]),
    "",
    'Use "cnitool [command] --help" for more information about a command.',
    "",
  ].join("\n");
}

/** The root help: the long description, then the usage. */
export function rootHelp(): string {
  return `${rootLong}\n\n${rootUsage()}`;
}

/** A subcommand's usage, as cobra prints it (ends with a newline). */
export function commandUsage(name: string): string {
  const spec = commands[name];
  return [
    "Usage:",
    `  cnitool ${spec.use} [flags]`,
    "",
    "Flags:",
    flagTable([["-h, --help", `help for ${name}`], ...(spec.flags ?? [])]),
    "",
    "Global Flags:",
    flagTable([cacheDirFlag, ifnameFlag]),
    "",
  ].join("\n");
}

/** A subcommand's help: the long description, then the usage. */
export function commandHelp(name: string): string {
  return `${commands[name].long}\n\n${commandUsage(name)}`;
}
