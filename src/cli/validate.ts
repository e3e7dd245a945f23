/**
 * `cnitool validate`: the network's plugins checked (each exists and supports the version) and
 * its capabilities printed, then the linter's findings on stderr; a lint error fails it.
 * `--file <path>` takes one conf file (a `.conflist`, or a single plugin's `.conf`) instead of
 * a network of the conf dir. A broken file of the conf dir fails upstream's lookup
 * (`LoadConfList` stops at the first file it cannot parse); validate then looks again past
 * it, so that one broken file never masks another network.
 */
import { readFile } from "node:fs/promises";
import type { CNIConfig } from "../api/index.js";
import {
  confFiles,
  confFromFile,
  confListFromConf,
  lintNetworkList,
  loadNetworkConf,
  type NetworkConfigList,
  networkConfFromFile,
} from "../conf/index.js";
import { marshalIndent } from "../encoding/json.js";
import { messageOf } from "../errors/index.js";
import { lintLines, lintOfFailedLoad } from "./lint-output.js";

/** What validate writes to and how it fails, from the command's runner. */
export interface ValidateIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** cobra's `Error: <msg>` and usage, on stderr. */
  fail(message: string): void;
}

/** One conf file as the list it loads as. */
async function listOfFile(file: string): Promise<NetworkConfigList> {
  return file.endsWith(".conflist")
    ? networkConfFromFile(file)
    : confListFromConf(await confFromFile(file));
}

/** The network `name` of the conf dir, read past the files that cannot be parsed. */
async function findPastBroken(dir: string, name: string): Promise<NetworkConfigList | undefined> {
  for (const file of await confFiles(dir, [".conf", ".conflist", ".json"])) {
    try {
      const list = await listOfFile(file);
      if (list.name === name) return list;
    } catch {
      // Another network's broken file: not this one's business.
    }
  }
  return undefined;
}

/** Runs validate; resolves to the exit code. */
export async function validateCommand(
  cni: CNIConfig,
  target: { dir: string; name: string } | { file: string },
  io: ValidateIO,
  signal: AbortSignal | undefined,
): Promise<number> {
  let list: NetworkConfigList;
  try {
    list =
      "file" in target
        ? await listOfFile(target.file)
        : await loadNetworkConf(target.dir, target.name);
  } catch (error) {
    const found = "file" in target ? undefined : await findPastBroken(target.dir, target.name);
    if (found === undefined) {
      const lint = await lintOfFailedLoad(error, "file" in target ? target.file : undefined);
      if (lint === undefined) throw error;
      io.fail(messageOf(error));
      io.stderr.write(lintLines(lint));
      return 1;
    }
    list = found;
  }
  // One file: its own bytes, as written; a network of the dir: the list as loaded (drop-ins).
  const lint = lintNetworkList("file" in target ? await readFile(target.file) : list);
  let capabilities: string[];
  try {
    capabilities = await cni.validateNetworkList(list, { signal });
  } catch (error) {
    io.fail(messageOf(error));
    io.stderr.write(lintLines(lint));
    return 1;
  }
  io.stdout.write(
    `${marshalIndent({ name: list.name, cniVersion: list.cniVersion, capabilities })}\n`,
  );
  io.stderr.write(lintLines(lint));
  return lint.errors.length > 0 ? 1 : 0;
}
