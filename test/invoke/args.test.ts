/**
 * CNIArgs as environment (upstream pkg/invoke/args_test.go), plus the deterministic order.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig } from "../../src/api/index.js";
import { networkConfFromBytes } from "../../src/conf/index.js";
import { Args, argsFromEnv, type CNIArgs, DelegateArgs, OnceArgs } from "../../src/invoke/args.js";
import { DefaultExec, FakeExec } from "../../src/invoke/index.js";
import { makeTempDir, removeTempDir } from "./helpers.js";

/**
 * Upstream's rule for a plugin's environment (pkg/invoke/args.go dedupEnv), written plainly as
 * the model the one-pass build is held to: duplicate keys removed, the later value winning at
 * its last position; items without `=` kept where they are.
 */
function dedupEnv(env: readonly string[]): string[] {
  const entries = new Map<string, string>();
  let bare = 0;
  for (const kv of env) {
    const eq = kv.indexOf("=");
    // A unique key per bare item keeps it in place without ever matching a real key.
    const key = eq < 0 ? `\0${bare++}` : kv.slice(0, eq);
    entries.delete(key);
    entries.set(key, kv);
  }
  return [...entries.values()];
}

const cniKeys = [
  "CNI_COMMAND",
  "CNI_IFNAME",
  "CNI_CONTAINERID",
  "CNI_ARGS",
  "CNI_NETNS",
  "CNI_PATH",
] as const;

function environLength(): number {
  return Object.values(process.env).filter((v) => v !== undefined).length;
}

function unsetCNI(): void {
  for (const k of cniKeys) delete process.env[k];
}

describe("Args asEnv", () => {
  beforeEach(() => {
    process.env.CNI_COMMAND = "DEL";
    process.env.CNI_IFNAME = "eth0";
    process.env.CNI_CONTAINERID = "id";
    process.env.CNI_ARGS = "args";
    process.env.CNI_NETNS = "testns";
    process.env.CNI_PATH = "testpath";
  });
  afterEach(unsetCNI);

  it("places the CNI environment variables in the end to be prepended", () => {
    const args = new Args({
      command: "ADD",
      containerID: "some-container-id",
      netNS: "/some/netns/path",
      pluginArgs: [
        ["KEY1", "VALUE1"],
        ["KEY2", "VALUE2"],
      ],
      ifName: "eth7",
      path: "/some/cni/path",
    });
    const latent = environLength();
    const env = args.asEnv();
    expect(env).toHaveLength(latent);
    for (const kv of [
      "CNI_COMMAND=ADD",
      "CNI_IFNAME=eth7",
      "CNI_CONTAINERID=some-container-id",
      "CNI_NETNS=/some/netns/path",
      "CNI_ARGS=KEY1=VALUE1;KEY2=VALUE2",
      "CNI_PATH=/some/cni/path",
    ]) {
      expect(env).toContain(kv);
    }
    for (const kv of [
      "CNI_COMMAND=DEL",
      "CNI_IFNAME=eth0",
      "CNI_CONTAINERID=id",
      "CNI_NETNS=testns",
      "CNI_ARGS=args",
      "CNI_PATH=testpath",
    ]) {
      expect(env).not.toContain(kv);
    }
  });

  it("ends with the six CNI variables in a fixed order, after the inherited ones in theirs", () => {
    process.env.LIBCNI_TEST_A = "a";
    process.env.LIBCNI_TEST_B = "b";
    try {
      const env = new Args({ command: "ADD" }).asEnv();
      expect(env.slice(-6)).toEqual([
        "CNI_COMMAND=ADD",
        "CNI_CONTAINERID=",
        "CNI_NETNS=",
        "CNI_ARGS=",
        "CNI_IFNAME=",
        "CNI_PATH=",
      ]);
      expect(env.indexOf("LIBCNI_TEST_A=a")).toBeLessThan(env.indexOf("LIBCNI_TEST_B=b"));
      // The same inputs give the same environment.
      expect(new Args({ command: "ADD" }).asEnv()).toEqual(env);
    } finally {
      delete process.env.LIBCNI_TEST_A;
      delete process.env.LIBCNI_TEST_B;
    }
  });

  it("always sends all six, empty when unset", () => {
    unsetCNI();
    const env = new Args().asEnv();
    for (const k of cniKeys) expect(env).toContain(`${k}=`);
  });

  it("prefers pluginArgsStr over pluginArgs, and joins pairs without escaping", () => {
    expect(new Args({ pluginArgsStr: "A=1;B=2", pluginArgs: [["C", "3"]] }).asEnv()).toContain(
      "CNI_ARGS=A=1;B=2",
    );
    expect(new Args({ pluginArgs: [["K", "v=w;x"]] }).asEnv()).toContain("CNI_ARGS=K=v=w;x");
  });
});

describe("DelegateArgs asEnv", () => {
  beforeEach(() => {
    delete process.env.CNI_COMMAND;
  });
  afterEach(() => {
    delete process.env.CNI_COMMAND;
  });

  it("overrides CNI_COMMAND if it already exists in environment variables", () => {
    process.env.CNI_COMMAND = "DEL";
    const latent = environLength();
    const env = new DelegateArgs({ command: "ADD" }).asEnv();
    expect(env).toHaveLength(latent);
    expect(env).toContain("CNI_COMMAND=ADD");
    expect(env).not.toContain("CNI_COMMAND=DEL");
  });

  it("appends CNI_COMMAND if it does not exist in environment variables", () => {
    const latent = environLength();
    const env = new DelegateArgs({ command: "ADD" }).asEnv();
    expect(env).toHaveLength(latent + 1);
    expect(env).toContain("CNI_COMMAND=ADD");
    expect(env.at(-1)).toBe("CNI_COMMAND=ADD");
  });

  it("leaves the other CNI variables as inherited", () => {
    process.env.CNI_IFNAME = "eth9";
    try {
      expect(new DelegateArgs({ command: "DEL" }).asEnv()).toContain("CNI_IFNAME=eth9");
    } finally {
      delete process.env.CNI_IFNAME;
    }
  });
});

describe("Args asEnv across calls", () => {
  const args = new Args({ command: "ADD" });
  const inherited = (env: string[] | undefined) =>
    (env ?? []).filter((kv) => kv.startsWith("LIBCNI_TEST_ARGS_"));
  afterEach(() => {
    for (const key of Object.keys(process.env)) {
      if (key.startsWith("LIBCNI_TEST_ARGS_")) delete process.env[key];
    }
  });

  it("gives each call the variables as they are then: a value changed, one unset, one set", () => {
    process.env.LIBCNI_TEST_ARGS_A = "1";
    process.env.LIBCNI_TEST_ARGS_B = "2";
    expect(inherited(args.asEnv())).toEqual(["LIBCNI_TEST_ARGS_A=1", "LIBCNI_TEST_ARGS_B=2"]);
    expect(inherited(args.asEnv())).toEqual(["LIBCNI_TEST_ARGS_A=1", "LIBCNI_TEST_ARGS_B=2"]);
    process.env.LIBCNI_TEST_ARGS_A = "10";
    delete process.env.LIBCNI_TEST_ARGS_B;
    process.env.LIBCNI_TEST_ARGS_C = "";
    expect(inherited(args.asEnv())).toEqual(["LIBCNI_TEST_ARGS_A=10", "LIBCNI_TEST_ARGS_C="]);
  });

  it("stays right when hundreds of variables come and go between calls", () => {
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 300; i++) process.env[`LIBCNI_TEST_ARGS_${round}_${i}`] = `${i}`;
      const env = inherited(args.asEnv());
      expect(env).toHaveLength(300);
      expect(env[299]).toBe(`LIBCNI_TEST_ARGS_${round}_299=299`);
      for (let i = 0; i < 300; i++) delete process.env[`LIBCNI_TEST_ARGS_${round}_${i}`];
      expect(inherited(args.asEnv())).toEqual([]);
    }
  });
});

describe("inherited asEnv", () => {
  it("returns undefined (upstream nil) so that the plugin inherits the environment", () => {
    expect(argsFromEnv().asEnv()).toBeUndefined();
  });
});

describe("dedupEnv", () => {
  it("keeps the last value of a key, at its last position; bare items stay in place", () => {
    expect(dedupEnv(["A=1", "noequals", "B=2", "A=3", "C=", "B=4=5"])).toEqual([
      "noequals",
      "A=3",
      "C=",
      "B=4=5",
    ]);
  });

  it("property: unique keys, each with its last value", () => {
    const entry = fc.tuple(fc.constantFrom("A", "B", "C", "PATH", "CNI_ARGS"), fc.string());
    fc.assert(
      fc.property(fc.array(entry), (entries) => {
        const env = entries.map(([k, v]) => `${k}=${v}`);
        const out = dedupEnv(env);
        const keys = out.map((kv) => kv.slice(0, kv.indexOf("=")));
        expect(new Set(keys).size).toBe(keys.length);
        const last = new Map(entries);
        expect(out.length).toBe(last.size);
        for (const [k, v] of last) expect(out).toContain(`${k}=${v}`);
      }),
    );
  });
});

describe("the environment built in one pass", () => {
  const added: string[] = [];
  afterEach(() => {
    for (const k of added.splice(0)) delete process.env[k];
  });

  it("property: Args and DelegateArgs give what dedupEnv gives of the process environment and their variables", () => {
    const key = fc.constantFrom(
      "A",
      "B_1",
      "PATHX",
      "9LIVES",
      "CNI_ARGS",
      "CNI_COMMAND",
      "CNI_PATH",
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.string())), fc.string(), (vars, command) => {
        for (const k of added.splice(0)) delete process.env[k];
        for (const [k, v] of vars) {
          process.env[k] = v;
          added.push(k);
        }
        const environ = Object.entries(process.env)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${k}=${v}`);
        const args = new Args({
          command,
          containerID: "c",
          netNS: "/n",
          ifName: "eth0",
          path: "/p",
        });
        expect(args.asEnv()).toEqual(
          dedupEnv([
            ...environ,
            `CNI_COMMAND=${command}`,
            "CNI_CONTAINERID=c",
            "CNI_NETNS=/n",
            "CNI_ARGS=",
            "CNI_IFNAME=eth0",
            "CNI_PATH=/p",
          ]),
        );
        expect(new DelegateArgs({ command }).asEnv()).toEqual(
          dedupEnv([...environ, `CNI_COMMAND=${command}`]),
        );
      }),
      { numRuns: 200 },
    );
  });
});

// The CNI_* environment built once per call: one `process.env` copy for a whole chain, the same
// list for every plugin run of the library's own Exec (a copy for any other Exec), never stale.
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
