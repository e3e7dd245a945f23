/**
 * What a rule says it saw: a plugin call told in one line, and the spec's error object read
 * from a failed call.
 */
import type { CallOutcome } from "./session.js";

const clip = (text: string, max = 300) => {
  const flat = text.trim().replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max)}...` : flat;
};

/** Milliseconds as a reader wants them: `30 s`, `1.5 s`, `250 ms`. */
export function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * A call in one line: the verb, how it ended, what it printed. A call that hung is told as a
 * hang of its verb, with the limit it ran under.
 */
export function told(call: CallOutcome): string {
  const how = call.timedOut
    ? `hung (no answer within ${seconds(call.timeoutMs)}; stopped)`
    : call.signal !== undefined
      ? `killed by ${call.signal}`
      : call.exitCode === undefined
        ? "did not start"
        : `exit ${call.exitCode}`;
  const out = call.stdout.trim() === "" ? "" : `, stdout ${clip(call.stdout)}`;
  const err = call.stderr.trim() === "" ? "" : `, stderr ${clip(call.stderr)}`;
  return `${call.spec.command ?? "(no CNI_COMMAND)"}: ${how}${out}${err}`;
}

/** The spec's error object a failed call printed on stdout, if it did. */
export interface SpecError {
  code: number;
  msg: string;
}

/** The error object of a failed call (Section 5, "Error"); undefined when it printed none. */
export function specError(call: CallOutcome): SpecError | undefined {
  const json = call.json;
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const { code, msg } = json as Record<string, unknown>;
  if (typeof code !== "number" || !Number.isInteger(code) || typeof msg !== "string")
    return undefined;
  return { code, msg };
}
