/**
 * The CNI_* environment built once per call (src/invoke/env-memo.ts): one `process.env` copy
 * for a whole chain, the same list for every plugin run of the library's own Exec (a copy for
 * any other Exec), converted to an env object and to entries once, and never stale: a list
 * changed in place, or process.env changed between two calls, is seen.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { CNIConfig } from "../../src/api/index.js";
import { networkConfFromBytes } from "../../src/conf/index.js";
import type { CNIArgs } from "../../src/invoke/args.js";
import {
  envEntriesOfList,
  envEntriesOnce,
  envObject,
  envObjectOnce,
  OnceArgs,
} from "../../src/invoke/env-memo.js";
import { DefaultExec, FakeExec, RawExec } from "../../src/invoke/index.js";
import { makeTempDir, removeTempDir } from "./helpers.js";

const result = '{"cniVersion":"1.0.0"}';

describe("OnceArgs", () => {
  const counting = () => {
    const args: CNIArgs & { built: number } = {
      built: 0,
      asEnv: () => [`N=${++args.built}`],
    };
    return args;
  };

  it("builds the environment once and hands the same list to a sharing Exec", () => {
    const inner = counting();
    const once = new OnceArgs(inner, true);
    const first = once.asEnv();
    expect(once.asEnv()).toBe(first);
    expect(once.asEnv()).toBe(first);
    expect(inner.built).toBe(1);
    expect(first).toEqual(["N=1"]);
  });

  it("hands an equal copy to an Exec that might change it", () => {
    const inner = counting();
    const once = new OnceArgs(inner, false);
    const first = once.asEnv();
    first?.push("MUTATED=1");
    expect(once.asEnv()).toEqual(["N=1"]);
    expect(inner.built).toBe(1);
  });

  it("keeps 'inherit this process's environment' (undefined) as is", () => {
    const once = new OnceArgs({ asEnv: () => undefined }, true);
    expect(once.asEnv()).toBeUndefined();
  });
});

describe("envObjectOnce and envEntriesOnce", () => {
  it("converts a list once, frozen, and again when it changed in place", () => {
    const env = ["A=1", "B=2", "A=3"];
    const object = envObjectOnce(env);
    expect(object).toEqual({ A: "3", B: "2" });
    expect(Object.isFrozen(object)).toBe(true);
    expect(envObjectOnce(env)).toBe(object);
    env.push("C=4");
    expect(envObjectOnce(env)).toEqual({ A: "3", B: "2", C: "4" });
    env[0] = "Z=9";
    expect(envObjectOnce(env)).toHaveProperty("Z", "9");
  });

  it("remembers the entries of a frozen object only", () => {
    const frozen = Object.freeze({ A: "1", B: "x\0y" });
    const first = envEntriesOnce(frozen);
    expect(first).toEqual({ entries: ["A=1", "B=x\0y"], hasNul: true });
    expect(envEntriesOnce(frozen)).toBe(first);
    const open: Record<string, string> = { A: "1" };
    const before = envEntriesOnce(open);
    open.A = "2";
    expect(envEntriesOnce(open)).not.toBe(before);
    expect(envEntriesOnce(open).entries).toEqual(["A=2"]);
  });

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
  const objectEntries = (object: Readonly<Record<string, string>>) =>
    Object.keys(object).map((k) => `${k}=${object[k]}`);

  it("property: a list's entries, made without the object, are those its object gives", () => {
    fc.assert(
      fc.property(envList, (env) => {
        const fromList = envEntriesOfList(env);
        const entries = objectEntries(envObject(env));
        expect(fromList).toEqual({ entries, hasNul: entries.some((kv) => kv.includes("\0")) });
      }),
    );
  });

  it("sees a list changed in place", () => {
    const env = ["A=1", "B=2"];
    expect(envEntriesOfList(env).entries).toEqual(["A=1", "B=2"]);
    env[1] = "A=3";
    expect(envEntriesOfList(env).entries).toEqual(["A=3"]);
  });

  it("property: the entries remembered with a converted list are those the object gives", () => {
    fc.assert(
      fc.property(envList, (env) => {
        const object = envObjectOnce(env);
        const entries = objectEntries(object);
        expect(envEntriesOnce(object)).toEqual({
          entries,
          hasNul: entries.some((kv) => kv.includes("\0")),
        });
      }),
    );
  });
});

describe("a call's environment", () => {
  const chain = networkConfFromBytes(
    new TextEncoder().encode(
      '{"cniVersion":"1.0.0","name":"envnet","plugins":[{"type":"p"},{"type":"p"},{"type":"p"}]}',
    ),
  );
  const rt = { containerID: "env-container", netNS: "/var/run/netns/env", ifName: "eth0" };
  let dir: string | undefined;
  afterEach(async () => {
    delete process.env.LIBCNI_ENV_MEMO_TEST;
    if (dir !== undefined) await removeTempDir(dir);
    dir = undefined;
  });

  /** The library's own Exec, recording each run's environment list instead of running. */
  class RecordingExec extends DefaultExec {
    readonly envs: (string[] | undefined)[] = [];
    override async execPlugin(_p: string, _s: Uint8Array, env: string[] | undefined) {
      this.envs.push(env);
      return new TextEncoder().encode(result);
    }
  }

  it("is one list for every plugin of a chain with the library's Exec", async () => {
    dir = await makeTempDir("libcni-env-");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(`${dir}/p`, "", { mode: 0o755 });
    const exec = new RecordingExec({ launcher: "direct" });
    const cni = new CNIConfig({ path: [dir], cacheDir: `${dir}/cache`, exec });
    await cni.addNetworkList(chain, rt);
    expect(exec.envs).toHaveLength(3);
    expect(exec.envs[1]).toBe(exec.envs[0]);
    expect(exec.envs[2]).toBe(exec.envs[0]);
    expect(exec.envs[0]).toContain("CNI_COMMAND=ADD");
    await cni.delNetworkList(chain, rt);
    expect(exec.envs[3]).not.toBe(exec.envs[0]);
    expect(exec.envs[3]).toContain("CNI_COMMAND=DEL");
    expect(exec.envs[4]).toBe(exec.envs[3]);
  });

  it("is an equal copy per plugin for another Exec, and sees process.env as of each call", async () => {
    const fake = new FakeExec();
    fake.findInPathCall.returns.path = "/fake/p";
    fake.execPluginCall.returns.resultBytes = result;
    const cni = new CNIConfig({
      path: ["/fake"],
      cacheDir: await (async () => {
        dir = await makeTempDir("libcni-env-");
        return dir;
      })(),
      exec: fake,
    });
    process.env.LIBCNI_ENV_MEMO_TEST = "one";
    await cni.addNetworkList(chain, rt);
    process.env.LIBCNI_ENV_MEMO_TEST = "two";
    await cni.addNetworkList(chain, rt);
    const envs = fake.calls.map((c) => c.environ);
    expect(envs).toHaveLength(6);
    expect(envs[1]).not.toBe(envs[0]);
    expect(envs[1]).toEqual(envs[0]);
    for (const env of envs.slice(0, 3)) expect(env).toContain("LIBCNI_ENV_MEMO_TEST=one");
    for (const env of envs.slice(3)) expect(env).toContain("LIBCNI_ENV_MEMO_TEST=two");
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
