/**
 * Names of what the testing helpers create (namespaces, temp dirs): `lcnitest-<pid>-<n>`, so a
 * leftover of a killed run says which process made it, and two test files running in parallel
 * (vitest's forks) never pick the same name.
 */

/** The prefix of every namespace and temp dir the helpers create. */
export const testNamePrefix = "lcnitest";

let counter = 0;

/** A name unique to this process: `<prefix>-<pid>-<n>`, then `-<label>` when one is given. */
export function uniqueTestName(label?: string, prefix: string = testNamePrefix): string {
  counter += 1;
  const base = `${prefix}-${process.pid}-${counter}`;
  return label === undefined || label === "" ? base : `${base}-${label}`;
}
