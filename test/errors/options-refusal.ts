/**
 * The options argument's one check, shared by the entries' tests: `null` and every other value
 * that is no object is an InvalidArgumentError naming `options`, with the runtime's message.
 */
import { expect } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";

/** Asserts that `call` refuses each kind of options that is no object. */
export async function expectOptionsRefused(call: (options: never) => Promise<unknown>) {
  for (const [options, kind] of [
    [null, "null"],
    [5, "a number"],
    ["fast", "a string"],
    [[], "an array"],
  ] as const) {
    const error = await call(options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe("options");
    expect((error as Error).message).toBe(`options must be an options object, got ${kind}`);
  }
}
