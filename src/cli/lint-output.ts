/**
 * How `cnitool validate` shows the conflist linter's findings: a line each on stderr,
 * `lint <severity> "<JSON pointer>": <message>`, errors first, each group in document order.
 * They come after what validate printed before the linter existed, so that output stays a prefix.
 */
import { readFile } from "node:fs/promises";
import { type LintResult, lintNetworkList } from "../conf/index.js";
import { ConfFileError } from "../errors/conf.js";

/** The findings as cnitool prints them (each line ends with a newline). */
export function lintLines(lint: LintResult): string {
  return [...lint.errors, ...lint.warnings]
    .map((f) => `lint ${f.severity} ${JSON.stringify(f.pointer)}: ${f.message}\n`)
    .join("");
}

/**
 * The lint of the conflist a load failed on (`{"plugin": [...]}` loads as a list without
 * plugins, and the user should learn why), or undefined when the error names no `.conflist`
 * file (a drop-in plugin file is not a list) or the file cannot be read again.
 */
export async function lintOfFailedLoad(
  error: unknown,
  file?: string,
): Promise<LintResult | undefined> {
  // The file given (`validate --file`), whatever its kind; else the .conflist the error names.
  const target =
    file ??
    (error instanceof ConfFileError && error.file.endsWith(".conflist") ? error.file : undefined);
  if (target === undefined) return undefined;
  try {
    return lintNetworkList(await readFile(target));
  } catch {
    return undefined;
  }
}
