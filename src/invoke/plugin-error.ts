/**
 * The error a failed plugin run becomes (upstream `RawExec.pluginErr`): upstream's messages and
 * codes, which runtimes match on; what upstream drops (exit status, stderr, the OS error) on
 * the error's properties and `cause`, as execa's errors do.
 */

import { parseJSON } from "../encoding/parse.js";
import { defineStruct } from "../encoding/struct.js";
import { type JSONSyntaxError, UnmarshalTypeError } from "../errors/go.js";
import { type PluginExecDetails, PluginExecError } from "../errors/invoke.js";
import { attempt } from "../internal/error-message.js";
import { goQuoteBytes } from "../internal/go-quote.js";
import { ErrUnknown } from "../types/error-codes.js";

interface ErrorFields {
  code?: number;
  msg?: string;
  details?: string;
}

// Upstream decodes stdout into types.Error{Code uint, Msg string, Details string}.
const fieldTypes = {
  code: { type: "uint" },
  msg: { type: "string" },
  details: { type: "string" },
} as const;
const errorStruct = defineStruct<ErrorFields>("types.Error", { fields: fieldTypes });
const singleFields = (["code", "msg", "details"] as const).map((name) => ({
  name,
  decoder: defineStruct<ErrorFields>("types.Error", { fields: { [name]: fieldTypes[name] } }),
}));

interface Decoded {
  fields: ErrorFields;
  error?: Error;
}

/** Go's json.Unmarshal(stdout, &types.Error{}): the fields set, and the first error met. */
function decodeErrorObject(stdout: Uint8Array): Decoded {
  let value: unknown;
  try {
    value = parseJSON(stdout);
  } catch (error) {
    // A syntax error decodes nothing: Go validates the whole input first.
    return { fields: {}, error: error as JSONSyntaxError };
  }
  try {
    return { fields: errorStruct.decode(value) };
  } catch (error) {
    if (!(error instanceof UnmarshalTypeError)) throw error;
    // Go keeps decoding after a type error, so the fields that were fine are still set.
    const fields: ErrorFields = {};
    // A field that throws is the one (or one of those) with the wrong type; Go leaves it zero.
    for (const { name, decoder } of singleFields) {
      attempt(() => Object.assign(fields, { [name]: decoder.decode(value)[name] }));
    }
    return { fields, error };
  }
}

/** A plugin run that did not succeed, as {@link pluginErr} needs it. */
export interface FailedRun extends PluginExecDetails {
  /** Go's text for how the run failed: `exit status 1`, `signal: killed`, `fork/exec ...`. */
  reason: string;
}

/**
 * Upstream's pluginErr: for empty stdout, `netplugin failed with no error message: <reason>`
 * or `netplugin failed: "<stderr>": <reason>`; else the error object the plugin printed, or
 * `netplugin failed but error parsing its diagnostic message "<stdout>": <decode error>`. A
 * decoded object without `msg` is not silent, as upstream's was (docs/deviations/invoke.md).
 */
export function pluginErr(run: FailedRun): PluginExecError {
  const { stdout, stderr, reason } = run;
  if (stdout.length === 0) {
    const msg =
      stderr.length === 0
        ? `netplugin failed with no error message: ${reason}`
        : `netplugin failed: ${goQuoteBytes(stderr)}: ${reason}`;
    return new PluginExecError(ErrUnknown, msg, "", run);
  }

  const { fields, error } = decodeErrorObject(stdout);
  const code = fields.code ?? ErrUnknown;
  const details = fields.details ?? "";
  if (error !== undefined) {
    const msg = `netplugin failed but error parsing its diagnostic message ${goQuoteBytes(stdout)}: ${error.message}`;
    return new PluginExecError(code, msg, details, { ...run, cause: run.cause ?? error });
  }
  if (fields.msg === undefined || fields.msg === "") {
    const withStderr = stderr.length === 0 ? "" : ` (stderr ${goQuoteBytes(stderr)})`;
    const msg = `netplugin failed with no error message in its output ${goQuoteBytes(stdout)}${withStderr}: ${reason}`;
    return new PluginExecError(code, msg, details, run);
  }
  return new PluginExecError(code, fields.msg, details, run);
}
