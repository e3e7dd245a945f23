/**
 * `cnitool validate`: a network's plugins checked and its capabilities printed, then the
 * linter's findings on stderr (docs/cnitool.md), after that output so it stays a prefix. A
 * broken file of the conf dir fails upstream's lookup (`LoadConfList` stops at it); validate
 * looks again past it, so one broken file never masks another network. `--dir` is
 * libcni/runtime's `validateConfDir`.
 */
import { readFile } from "node:fs/promises";
import type { CNIConfig } from "../api/index.js";
import {
  confFiles,
  type LintResult,
  lintNetworkList,
  loadNetworkConf,
  type NetworkConfigList,
} from "../conf/index.js";
import { marshalIndent } from "../encoding/json.js";
import { ConfFileError } from "../errors/conf.js";
import { messageOf } from "../internal/error-message.js";
import { listOfFile } from "../runtime/load.js";
import { type ConfDirFinding, validateConfDir } from "../runtime/validate-conf-dir.js";
import { plural } from "../testing/conformance/report.js";
import type { CnitoolIO } from "./runtime-config.js";

type ValidateIO = Pick<CnitoolIO, "stdout" | "stderr" | "signal">;

/** The findings, `lint <severity> "<JSON pointer>": <message>` a line, errors first. */
function lintLines(lint: LintResult): string {
  return [...lint.errors, ...lint.warnings]
    .map((f) => `lint ${f.severity} ${JSON.stringify(f.pointer)}: ${f.message}\n`)
    .join("");
}

/**
 * The lint of the conflist a load failed on (`{"plugin": [...]}` loads as a list without
 * plugins, and the user should learn why): the file given (`--file`), whatever its kind, else
 * the `.conflist` the error names; undefined for none, or when it cannot be read again.
 */
async function lintOfFailedLoad(error: unknown, file?: string): Promise<LintResult | undefined> {
  const target =
    file ??
    (error instanceof ConfFileError && error.file.endsWith(".conflist") ? error.file : undefined);
  if (target === undefined) return undefined;
  return readFile(target)
    .then((bytes) => lintNetworkList(bytes))
    .catch(() => undefined);
}

/** The network `name` of the conf dir, read past the files that cannot be parsed. */
async function findPastBroken(dir: string, name: string): Promise<NetworkConfigList | undefined> {
  for (const file of await confFiles(dir, [".conf", ".conflist", ".json"])) {
    // Another network's broken file: not this one's business.
    const list = await listOfFile(file).catch(() => undefined);
    if (list?.name === name) return list;
  }
  return undefined;
}

/** Runs validate; resolves to the exit code. */
export async function validateCommand(
  cni: CNIConfig,
  target: { dir: string; name: string } | { file: string },
  io: ValidateIO,
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
      io.stderr.write(`Error: ${messageOf(error)}\n`);
      io.stderr.write(lintLines(lint));
      return 1;
    }
    list = found;
  }
  // One file: its own bytes, as written; a network of the dir: the list as loaded (drop-ins).
  const lint = lintNetworkList("file" in target ? await readFile(target.file) : list);
  let capabilities: string[];
  try {
    capabilities = await cni.validateNetworkList(list, { signal: io.signal });
  } catch (error) {
    io.stderr.write(`Error: ${messageOf(error)}\n`);
    io.stderr.write(lintLines(lint));
    return 1;
  }
  io.stdout.write(
    `${marshalIndent({ name: list.name, cniVersion: list.cniVersion, capabilities })}\n`,
  );
  io.stderr.write(lintLines(lint));
  return lint.errors.length > 0 ? 1 : 0;
}

/** One finding as a line: `<file>:<pointer>: <severity>: <message>` (no `:<pointer>` for ""). */
function findingLine(f: ConfDirFinding): string {
  const where = f.pointer === "" ? f.file : `${f.file}:${f.pointer}`;
  return `${where}: ${f.severity}: ${f.message}\n`;
}

/** Runs `validate --dir`; resolves to 1 when a finding is an error, else 0. */
export async function validateDirCommand(
  target: { dir: string; binDirs: string[]; json: boolean },
  io: ValidateIO,
): Promise<number> {
  const report = await validateConfDir({
    confDir: target.dir,
    binDirs: target.binDirs,
    signal: io.signal,
  });
  // The library says no dir was given; here that is CNI_PATH, with the fix.
  for (const f of report.findings) {
    if (f.kind === "plugins-unchecked") {
      f.message = "CNI_PATH is empty: no plugin was looked for (CNI_PATH=/opt/cni/bin checks them)";
    }
  }
  const errors = report.findings.filter((f) => f.severity === "error").length;
  const warnings = report.findings.length - errors;
  io.stdout.write(
    target.json
      ? `${JSON.stringify(report, null, 2)}\n`
      : report.findings.map(findingLine).join(""),
  );
  if (!target.json) {
    io.stderr.write(
      `${plural(report.files.length, "conf file")}: ${plural(errors, "error")}, ${plural(warnings, "warning")}\n`,
    );
  }
  return errors > 0 ? 1 : 0;
}
