/**
 * Printing what a plugin reports: its result (upstream `types.PrintResult`) and its error
 * (upstream `types.Error.Print`), both as 4-space indented JSON with no trailing newline.
 */

import { goStruct, marshalIndent } from "../encoding/json.js";
import type { CNIError } from "../errors/types.js";
import type { Result } from "../types/index.js";
import { writeAll } from "./io.js";
import type { OutputStream } from "./types.js";

/** The error as upstream prints it: `{"code","msg","details"}` in Go's field order, indented. */
export function formatError(error: CNIError): string {
  // Built from the fields, so an error from another copy of this library prints the same.
  return marshalIndent(
    goStruct({
      code: error.code,
      msg: error.msg,
      details: error.details === "" ? undefined : error.details,
    }),
  );
}

/**
 * Converts the result to the config's version and prints it (upstream `types.PrintResult`).
 * Rejects when the result cannot be expressed in that version; nothing is printed then.
 */
export async function printResult(
  result: Result,
  version: string,
  stdout: OutputStream = process.stdout,
): Promise<void> {
  await writeAll(stdout, result.getAsVersion(version).print());
}
