/**
 * cnitool: a drop-in for upstream's command line. `add|check|del|gc|status <net> <netns>`
 * behave, read the environment and print exactly as the Go tool (cobra's help, usage and error
 * layout included); `attachments`, `conformance`, `rootless`, `sweep`, `validate`, `version`, `--cache-dir`
 * and `gc --valid` are additions that leave those defaults alone. Differences: docs/deviations/cnitool.md.
 */
import { CNIConfig, type NetworkAttachment } from "../api/index.js";
import { loadNetworkConf } from "../conf/index.js";
import { marshalIndent } from "../encoding/json.js";
import { parseJSON } from "../encoding/parse.js";
import { messageOf } from "../internal/error-message.js";
import { goQuote } from "../internal/go-quote.js";
import { conformanceCommand } from "./conformance.js";
import {
  argsMinusFirst,
  FlagError,
  flagIsTrue,
  type ParsedFlags,
  parseFlags,
  stripFlags,
} from "./flags.js";
import { gcCommand } from "./gc.js";
import { rootlessCommand } from "./rootless.js";
import {
  absolutePath,
  type CnitoolEnv,
  type CnitoolIO,
  containerIDForNetns,
  defaultNetDir,
  dirList,
  parseCapabilityArgs,
  parseCNIArgsPairs,
  pluginPaths,
  resolveIfName,
} from "./runtime-config.js";
import { sweepCommand } from "./sweep.js";
import {
  checkArgs,
  commands,
  flagsOf,
  helpOf,
  isCommand,
  rootUsage,
  suggestions,
  usageOf,
} from "./usage.js";
import { validateCommand, validateDirCommand } from "./validate.js";

/**
 * A failure cobra reports with the usage: `Error: <msg>`, the usage, main's line; exit 1 as
 * upstream's. conformance and validate, whose 1 means a failed check, exit 2 (validate says
 * the error once, before the usage).
 */
function failWithUsage(io: CnitoolIO, command: string | undefined, message: string): number {
  if (command === "validate") {
    io.stderr.write(`Error: ${message}\n${usageOf(command)}`);
    return 2;
  }
  io.stderr.write(`Error: ${message}\n${usageOf(command)}\n${message}\n`);
  return command === "conformance" ? 2 : 1;
}

/** cobra's `Find`: the subcommand named by the first non-flag word, and the other words. */
function find(argv: readonly string[]): {
  command: string | undefined;
  rest: string[];
  error?: string;
} {
  const words = stripFlags(argv);
  if (words.length === 0) return { command: undefined, rest: [...argv] };
  if (isCommand(words[0])) return { command: words[0], rest: argsMinusFirst(argv, words[0]) };
  // The root takes no arguments of its own: cobra's legacyArgs.
  return {
    command: undefined,
    rest: [...argv],
    error: `unknown command ${goQuote(words[0])} for "cnitool"${suggestions(words[0])}`,
  };
}

/** Go's `%#q` of a `[]string`, as cobra prints an unknown help topic. */
function backquoteList(words: readonly string[]): string {
  const quote = (w: string) =>
    // biome-ignore lint/suspicious/noControlCharactersInRegex: Go's CanBackquote refuses control characters.
    /^[^`\u0000-\u0008\u000a-\u001f\u007f\ufeff]*$/u.test(w) ? `\`${w}\`` : goQuote(w);
  return `[${words.map(quote).join(" ")}]`;
}

/** Runs cnitool with the given arguments; resolves to the process exit code. */
export async function runCnitool(argv: string[], io: CnitoolIO): Promise<number> {
  const found = find(argv);
  if (found.error !== undefined) {
    io.stderr.write(`Error: ${found.error}\nRun 'cnitool --help' for usage.\n${found.error}\n`);
    return 1;
  }
  const { command } = found;
  let parsed: ParsedFlags;
  try {
    parsed = parseFlags(found.rest, flagsOf(command));
  } catch (error) {
    if (error instanceof FlagError) return failWithUsage(io, command, error.message);
    throw error;
  }
  // The root runs nothing: it prints its help, as a cobra root without Run.
  if (flagIsTrue(parsed, "help") || command === undefined) {
    io.stdout.write(helpOf(command));
    return 0;
  }
  const argsError = checkArgs(commands[command].args, parsed.args.length);
  if (argsError !== undefined) return failWithUsage(io, command, argsError);
  if (command === "help") return help(parsed.args, io);
  try {
    return (await runCommand(command, parsed, io)) ?? 0;
  } catch (error) {
    // A failed validation: the error once, no usage (the command line was right), exit 1.
    if (command === "validate") {
      io.stderr.write(`Error: ${messageOf(error)}\n`);
      return 1;
    }
    return failWithUsage(io, command, messageOf(error));
  }
}

/** cobra's help command: the help of the command the words name, or the root usage on stderr. */
function help(words: readonly string[], io: CnitoolIO): number {
  const found = find(words);
  if (found.error === undefined) io.stdout.write(helpOf(found.command));
  else io.stderr.write(`Unknown help topic ${backquoteList(words)}\n${rootUsage(false)}`);
  return 0;
}

/** Runs a command; resolves to its exit code when that is not 0 without an error. */
async function runCommand(
  command: string,
  parsed: ParsedFlags,
  io: CnitoolIO,
): Promise<number | undefined> {
  // A relative --cache-dir is taken from the working directory cnitool was given.
  const cacheDirFlag = parsed.values.get("cache-dir");
  const cacheDir = cacheDirFlag ? absolutePath(cacheDirFlag, io.cwd) : undefined;
  const cni = new CNIConfig({ path: pluginPaths(io.env), cacheDir });
  const opts = { signal: io.signal };
  const positionals = parsed.args;
  switch (command) {
    case "version": {
      const info = await cni.getVersionInfo(positionals[0], opts);
      io.stdout.write(`${marshalIndent(parseJSON(info.encode()))}\n`);
      return;
    }
    case "attachments": {
      const attachments = await cni.getCachedAttachments(positionals[0] ?? "", opts);
      io.stdout.write(`${marshalIndent(attachments.map(attachmentView))}\n`);
      return;
    }
    case "conformance":
      return conformanceCommand(positionals[0], parsed, io, (m) => failWithUsage(io, command, m));
    case "rootless":
      return rootlessCommand(positionals, io);
    case "sweep":
      return sweepCommand(parsed, io);
    case "validate": {
      const file = parsed.values.get("file");
      const dir = parsed.values.get("dir");
      const json = flagIsTrue(parsed, "json");
      const given = [positionals.length > 0, Boolean(file), Boolean(dir)].filter(Boolean).length;
      if (given !== 1) {
        return failWithUsage(
          io,
          command,
          given === 0
            ? "give a network name, --file <path> or --dir <dir>"
            : "give one of a network name, --file and --dir, not several",
        );
      }
      if (json && !dir) return failWithUsage(io, command, "--json goes with --dir");
      if (dir) {
        const binDirs = dirList(io.env.CNI_PATH ?? "", io.cwd);
        return validateDirCommand({ dir: absolutePath(dir, io.cwd), binDirs, json }, io);
      }
      const target = file
        ? { file: absolutePath(file, io.cwd) }
        : { dir: netDir(io.env), name: positionals[0] };
      return validateCommand(cni, target, io);
    }
  }
  const [netName, netnsArg] = positionals;
  // Upstream's order: the configuration first, then CAP_ARGS, CNI_ARGS, the interface and the ID.
  const list = await loadNetworkConf(netDir(io.env), netName);
  const { CAP_ARGS, CNI_ARGS } = io.env;
  const capabilityArgs = CAP_ARGS ? parseCapabilityArgs(CAP_ARGS) : undefined;
  const args = CNI_ARGS ? parseCNIArgsPairs(CNI_ARGS) : undefined;
  const ifName = resolveIfName(parsed.values.get("ifname"), io.env);
  const netNS = absolutePath(netnsArg, io.cwd);
  const rt = { containerID: containerIDForNetns(netNS), netNS, ifName, args, capabilityArgs };
  switch (command) {
    case "add": {
      const result = await cni.addNetworkList(list, rt, opts);
      // Upstream's Result.Print: 4-space indented, no trailing newline.
      if (result) io.stdout.write(result.print());
      return;
    }
    case "check":
      await cni.checkNetworkList(list, rt, opts);
      return;
    case "del":
      await cni.delNetworkList(list, rt, opts);
      return;
    case "gc":
      await gcCommand(cni, list, parsed, io);
      return;
    case "status":
      await cni.getStatusNetworkList(list, opts);
      return;
  }
}

function netDir(env: CnitoolEnv): string {
  return env.NETCONFPATH || defaultNetDir;
}

/** An attachment as `attachments` prints it: what identifies it and what ADD was given. */
function attachmentView(a: NetworkAttachment): Record<string, unknown> {
  return {
    containerID: a.containerID,
    network: a.network,
    ifName: a.ifName,
    netNS: a.netNS || undefined,
    cniArgs: a.cniArgs,
    capabilityArgs: a.capabilityArgs,
  };
}
