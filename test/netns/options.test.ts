/**
 * The options argument of every libcni/netns function that takes one: `null` or another value
 * that is no object (a default replaces `undefined` only) is an InvalidArgumentError naming
 * `options`, before anything is done (no namespace, no root needed: the other arguments are
 * bad too, so without the check nothing would be done either); `undefined` is the defaults.
 */
import { describe, expect, it } from "vitest";
import { NetnsError } from "../../src/errors/index.js";
import * as netns from "../../src/netns/index.js";
import { createNetns, execInNetns, type NetnsOptions, removeNetns } from "../../src/netns/index.js";
import { expectOptionsRefused } from "../errors/options-refusal.js";

const calls: [string, (options: NetnsOptions | undefined) => Promise<unknown>][] = [
  ["createNetns", (options) => createNetns("bad/name", options)],
  ["removeNetns", (options) => removeNetns("bad\0name", options)],
  ["execInNetns", (options) => execInNetns("/run/netns/bad\0name", ["true"], options)],
];

describe("libcni/netns options", () => {
  it("lists every exported function that takes options (isNetns takes a path only)", () => {
    const functions = Object.entries(netns).filter(([, v]) => typeof v === "function");
    const names = functions
      .map(([name]) => name)
      .filter((n) => n !== "isNetns" && n !== "NetnsError");
    expect(names.sort()).toEqual(calls.map(([name]) => name).sort());
  });

  it.each(calls)("%s refuses options that are no object", async (_, call) => {
    await expectOptionsRefused(call);
  });

  it.each(calls)("%s takes undefined options: the next argument is checked", async (_, call) => {
    const error = await call(undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetnsError);
    expect((error as NetnsError).reason).toBe("invalid-name");
  });
});
