/**
 * A plugin run's environment (src/engines/start/plugin-env.ts): a list's entries handed to the
 * helper as they are when its object would give them back, the object made only on demand, and the
 * list taken as it was at the exec call.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { envObject, PluginEnv } from "../../../src/engines/start/plugin-env.js";
import { RawExec } from "../../../src/invoke/index.js";

describe("PluginEnv", () => {
  // Lists with duplicate keys, keys that are array indexes or empty, entries without "=", NULs.
  const envList = fc.array(
    fc.oneof(
      fc
        .tuple(fc.constantFrom("A", "B", "PATH", "0", "7X", "12", ""), fc.string())
        .map(([k, v]) => `${k}=${v}`),
      fc.constantFrom("noequals", "=lead", "N=\0"),
    ),
  );
  /** The entries an env object gives, as Node's spawn reads it. */
  const objectEntries = (object: NodeJS.ProcessEnv) =>
    Object.keys(object).map((k) => `${k}=${object[k]}`);

  it("property: a list's entries, made without the object, are those its object gives", () => {
    fc.assert(
      fc.property(envList, (env) => {
        const entries = objectEntries(envObject(env));
        const expected = { entries, hasNul: entries.some((kv) => kv.includes("\0")) };
        expect(PluginEnv.ofList(env).entries()).toEqual(expected);
        expect(PluginEnv.ofObject(envObject(env)).entries()).toEqual(expected);
      }),
    );
  });

  it("hands the list itself to the helper when its object would give it back", () => {
    const env = PluginEnv.ofList(["A=1", "B=2"]);
    expect(env.entries().entries).toEqual(["A=1", "B=2"]);
    expect(env.entries()).toBe(env.entries());
    expect(env.object()).toEqual({ A: "1", B: "2" });
  });

  it("is the list as of its making, the last of a key winning", () => {
    const list = ["A=1", "B=2", "A=3"];
    const env = PluginEnv.ofList(list);
    list[0] = "Z=9";
    list.push("C=4");
    expect(env.object()).toEqual({ A: "3", B: "2" });
    expect(env.entries().entries).toEqual(["A=3", "B=2"]);
  });

  it("skips an object's undefined values and flags a NUL", () => {
    const env = PluginEnv.ofObject({ A: "1", B: undefined, C: "x\0y" });
    expect(env.entries()).toEqual({ entries: ["A=1", "C=x\0y"], hasNul: true });
  });
});

describe("a run's environment", () => {
  for (const launcher of ["direct", "auto"] as const) {
    it(`is the list as it was at the exec call, whatever the caller does to it after (${launcher})`, async () => {
      const exec = new RawExec({ stderr: null, launcher });
      const env = ["A=1", "B=2"];
      const run = exec.execPlugin("/usr/bin/env", new Uint8Array(), env);
      // The start waits for its turn of the event loop; the list changes before it.
      env[0] = "A=changed";
      env.push("C=3");
      const out = new TextDecoder().decode(await run);
      expect(out.split("\n").filter(Boolean)).toEqual(["A=1", "B=2"]);
    });
  }
});
