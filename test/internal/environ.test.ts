/**
 * A plugin's environment as it starts (src/internal/environ.ts): process.env as of each call,
 * whatever changed since the last one, and a list built exact handed on without a second check
 * only while the caller has not changed it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PluginEnv } from "../../src/engines/start/plugin-env.js";
import { builtExactCopy, environWith, isExactList } from "../../src/internal/environ.js";

const replaced: ReadonlySet<string> = new Set(["CNI_COMMAND"]);
const added = ["LIBCNI_ENVIRON_A", "LIBCNI_ENVIRON_B", "9"];

afterEach(() => {
  for (const key of added) delete process.env[key];
});

/** What the list must be: process.env's entries now, then the overrides. */
function expected(overrides: readonly string[]): string[] {
  const out: string[] = [];
  for (const key of Object.keys(process.env)) {
    const value = process.env[key];
    if (value !== undefined && !replaced.has(key)) out.push(`${key}=${value}`);
  }
  return out.concat(overrides);
}

describe("environWith", () => {
  it("reads process.env as of each call: a variable set, changed, removed, in its order", () => {
    const overrides = ["CNI_COMMAND=ADD"];
    expect(environWith(replaced, overrides)).toEqual(expected(overrides));
    process.env.LIBCNI_ENVIRON_A = "1";
    expect(environWith(replaced, overrides)).toEqual(expected(overrides));
    process.env.LIBCNI_ENVIRON_A = "2";
    process.env.LIBCNI_ENVIRON_B = "3";
    const list = environWith(replaced, overrides);
    expect(list).toEqual(expected(overrides));
    expect(list).toContain("LIBCNI_ENVIRON_A=2");
    delete process.env.LIBCNI_ENVIRON_A;
    expect(environWith(replaced, overrides)).toEqual(expected(overrides));
    expect(environWith(replaced, overrides)).not.toContain("LIBCNI_ENVIRON_A=2");
  });

  it("leaves out the replaced variables and hands each caller an array of its own", () => {
    process.env.CNI_COMMAND = "DEL";
    try {
      const a = environWith(replaced, ["CNI_COMMAND=ADD"]);
      const b = environWith(replaced, ["CNI_COMMAND=CHECK"]);
      expect(a.filter((kv) => kv.startsWith("CNI_COMMAND="))).toEqual(["CNI_COMMAND=ADD"]);
      expect(b.at(-1)).toBe("CNI_COMMAND=CHECK");
      a.push("X=1");
      expect(environWith(replaced, [])).not.toContain("X=1");
    } finally {
      delete process.env.CNI_COMMAND;
    }
  });
});

describe("a list built exact", () => {
  it("is handed on as built, unchecked, until the caller changes it", () => {
    const list = environWith(replaced, ["CNI_COMMAND=ADD"]);
    expect(isExactList(list)).toBe(true);
    expect(builtExactCopy(list)).toEqual(list);
    expect(builtExactCopy(list)).not.toBe(list);
    // A duplicate key pushed by the caller: no longer the list as built, so it is checked,
    // and the run's environment keeps the last value of the key as Go's exec does.
    list.push("CNI_COMMAND=DEL");
    expect(builtExactCopy(list)).toBeUndefined();
    const entries = PluginEnv.ofList(list).entries().entries;
    expect(entries.filter((kv) => kv.startsWith("CNI_COMMAND="))).toEqual(["CNI_COMMAND=DEL"]);
  });

  it("is not known exact when a key of the environment is an array index", () => {
    process.env["9"] = "x";
    const list = environWith(replaced, []);
    expect(builtExactCopy(list)).toBeUndefined();
    // Its object puts the index-like key first, so the entries come from the object.
    expect(PluginEnv.ofList(list).entries().entries[0]).toBe("9=x");
  });

  it("is unknown to the check when another caller built the same entries", () => {
    const list = environWith(replaced, []);
    expect(builtExactCopy(list.slice())).toBeUndefined();
  });
});
