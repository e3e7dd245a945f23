/**
 * cnitool: a drop-in for upstream's command line. `add|check|del|gc|status <net> <netns>`
 * behave, read the environment and print exactly as the Go tool; `attachments`, `validate`,
 * `version`, `--cache-dir` and `gc --valid` are additions that leave those defaults alone.
 */
import { parseArgs } from "node:util";
import { CNIConfig } from "../api/index.js";
import { loadNetworkConf } from "../conf/index.js";
import { marshalIndent } from "../encoding/json.js";
import {
  absolutePath,
  type CnitoolEnv,
  containerIDForNetns,
  defaultNetDir,
  parseCapabilityArgs,
  parseCNIArgsPairs,
  pluginPaths,
  resolveIfName,
} from "./runtime-config.js";
import { commandHelp, commands, commandUsage, rootHelp } from "./usage.js";

/** Where cnitool writes and what it runs in. */
export interface CnitoolIO {
  env: CnitoolEnv;
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  signal?: AbortSignal;
}

/** A failure cobra would report: `Error: <msg>`, then the usage, then main's own line. */
class UsageError extends Error {}

interface Parsed {
  command: string | undefined;
  positionals: string[];
  ifname?: string;
  cacheDir?: string;
  valid?: string;
  help: boolean;
}

function parse(argv: string[]): Parsed {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      ifname: { type: "string", short: "i" },
      "cache-dir": { type: "string" },
      valid: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, ...rest] = positionals;
  return {
    command,
    positionals: rest,
    ifname: values.ifname,
    cacheDir: values["cache-dir"],
    valid: values.valid,
    help: values.help === true,
  };
}

/** Runs cnitool with the given arguments; resolves to the process exit code. */
export async function runCnitool(argv: string[], io: CnitoolIO): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (e) {
    return fail(io, (e as Error).message, undefined);
  }
  const { command } = parsed;
  if (command === undefined || command === "help") {
    const topic = parsed.positionals[0];
    io.stdout.write(topic && commands[topic] ? commandHelp(topic) : rootHelp());
    return 0;
  }
  if (!Object.hasOwn(commands, command)) {
    io.stderr.write(
      `Error: unknown command ${JSON.stringify(command)} for "cnitool"\nRun 'cnitool --help' for usage.\n`,
    );
    return 1;
  }
  if (parsed.help) {
    io.stdout.write(commandHelp(command));
    return 0;
  }
  try {
    await runCommand(command, parsed, io);
    return 0;
  } catch (e) {
    return fail(io, e instanceof Error ? e.message : String(e), command);
  }
}

function fail(io: CnitoolIO, message: string, command: string | undefined): number {
  const usage = command ? commandUsage(command) : "";
  io.stderr.write(`Error: ${message}\n${usage === "" ? "" : `${usage}\n`}${message}\n`);
  return 1;
}

function requireArgs(parsed: Parsed, n: number): void {
  if (parsed.positionals.length < n) {
    throw new UsageError(
      `requires at least ${n} arg(s), only received ${parsed.positionals.length}`,
    );
  }
}

async function runCommand(command: string, parsed: Parsed, io: CnitoolIO): Promise<void> {
  const cni = new CNIConfig({ path: pluginPaths(io.env), cacheDir: parsed.cacheDir });
  const opts = { signal: io.signal };
  switch (command) {
    case "version": {
      requireArgs(parsed, 1);
      const info = await cni.getVersionInfo(parsed.positionals[0], opts);
      io.stdout.write(
        `${marshalIndent({ cniVersion: "1.1.0", supportedVersions: info.supportedVersions() })}\n`,
      );
      return;
    }
    case "attachments": {
      const attachments = await cni.getCachedAttachments(parsed.positionals[0] ?? "", opts);
      io.stdout.write(`${marshalIndent(attachments.map(attachmentView))}\n`);
      return;
    }
    case "validate": {
      requireArgs(parsed, 1);
      const list = await loadNetworkConf(netDir(io.env), parsed.positionals[0]);
      const caps = await cni.validateNetworkList(list, opts);
      io.stdout.write(
        `${marshalIndent({ name: list.name, cniVersion: list.cniVersion, capabilities: caps })}\n`,
      );
      return;
    }
  }
  requireArgs(parsed, 2);
  const [netName, netnsArg] = parsed.positionals;
  // Upstream's order: the configuration first, then CAP_ARGS, CNI_ARGS, the interface and the ID.
  const list = await loadNetworkConf(netDir(io.env), netName);
  const capArgsText = io.env.CAP_ARGS ?? "";
  const capabilityArgs = capArgsText.length > 0 ? parseCapabilityArgs(capArgsText) : undefined;
  const argsText = io.env.CNI_ARGS ?? "";
  const args = argsText.length > 0 ? parseCNIArgsPairs(argsText) : undefined;
  const ifName = resolveIfName(parsed.ifname, io.env);
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
      // Upstream passes no GC args, so every cached attachment of the network is collected.
      await cni.gcNetworkList(
        list,
        parsed.valid === undefined ? undefined : parseValid(parsed.valid),
        opts,
      );
      return;
    case "status":
      await cni.getStatusNetworkList(list, opts);
      return;
  }
}

function netDir(env: CnitoolEnv): string {
  return env.NETCONFPATH || defaultNetDir;
}

/** `--valid cid:ifname,...` into GC args; an empty value keeps nothing. */
export function parseValid(text: string): {
  validAttachments: { containerID: string; ifname: string }[];
} {
  const entries = text === "" ? [] : text.split(",");
  return {
    validAttachments: entries.map((entry) => {
      const at = entry.lastIndexOf(":");
      if (at <= 0 || at === entry.length - 1) {
        throw new UsageError(
          `invalid --valid attachment ${JSON.stringify(entry)}: want <container-id>:<ifname>`,
        );
      }
      return { containerID: entry.slice(0, at), ifname: entry.slice(at + 1) };
    }),
  };
}

interface AttachmentLike {
  containerID: string;
  network: string;
  ifName: string;
  netNS?: string;
  cniArgs?: [string, string][];
  capabilityArgs?: Record<string, unknown>;
}

function attachmentView(a: AttachmentLike): Record<string, unknown> {
  return {
    containerID: a.containerID,
    network: a.network,
    ifName: a.ifName,
    netNS: a.netNS || undefined,
    cniArgs: a.cniArgs,
    capabilityArgs: a.capabilityArgs,
  };
}
