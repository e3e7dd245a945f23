// pluginMain (upstream PluginMainFuncs): the error printed to stdout as upstream's Print does
// (4-space indent, no newline) and the exit status, run in-process with an injected exit.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CNIError } from "../../src/errors/index.js";
import {
  type CNIFuncs,
  type PluginMainExitOptions,
  pluginMain,
  pluginMainFuncs,
} from "../../src/skel/index.js";
import { formatError } from "../../src/skel/print.js";
import { pluginSupports } from "../../src/version/index.js";
import { bytes, Collector } from "./harness.js";

const addEnv = {
  CNI_COMMAND: "ADD",
  CNI_CONTAINERID: "c1",
  CNI_NETNS: "/some/netns",
  CNI_IFNAME: "eth0",
  CNI_PATH: "/opt/cni/bin",
};

async function main(
  funcs: CNIFuncs,
  env: Record<string, string>,
  about = "",
  extra: Partial<PluginMainExitOptions> = {},
): Promise<{ codes: number[]; stdout: string; stderr: string }> {
  const stdout = new Collector();
  const stderr = new Collector();
  const codes: number[] = [];
  await pluginMain(funcs, pluginSupports("0.4.0", "1.0.0"), about, {
    env,
    stdin: bytes(`{"name":"net","cniVersion":"1.0.0"}`),
    stdout,
    stderr,
    signal: new AbortController().signal,
    exit: (code) => codes.push(code),
    ...extra,
  });
  return { codes, stdout: stdout.text(), stderr: stderr.text() };
}

/** A stdout whose every write fails as a full disk's does: the callback's error, then "error". */
function fullStdout(): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      const error = Object.assign(new Error("ENOSPC: no space left on device, write"), {
        code: "ENOSPC",
        errno: -28,
        syscall: "write",
      });
      callback(error);
    },
  });
}

describe("pluginMain", () => {
  it("a stdout that cannot be written: Go's line on stderr and exit 1, no uncaught error", async () => {
    const failing = { add: async () => Promise.reject(new Error("boom")) };
    for (const env of [addEnv, { CNI_COMMAND: "VERSION" }]) {
      const run = await main(failing, env, "", { stdout: fullStdout() });
      expect(run.codes).toEqual([1]);
      expect(run.stderr).toBe(
        "Error writing error JSON to stdout: write /dev/stdout: no space left on device\n",
      );
    }
  });

  it("exits 0 and prints nothing of its own on success", async () => {
    const run = await main({ add: async () => {} }, addEnv);
    expect(run).toEqual({ codes: [0], stdout: "", stderr: "" });
  });

  it("keeps what the callback printed, in order", async () => {
    const run = await main(
      {
        add: async (_a, { stdout }) => {
          stdout.write('{"cniVersion":"1.0.0"}');
        },
      },
      addEnv,
    );
    expect(run.stdout).toBe('{"cniVersion":"1.0.0"}');
    expect(run.codes).toEqual([0]);
  });

  it("prints a callback's error indented by 4 spaces with no newline, and exits 1", async () => {
    const run = await main(
      {
        add: async () => {
          throw new CNIError(11, "try again later", "lock held");
        },
      },
      addEnv,
    );
    expect(run.stdout).toBe(
      '{\n    "code": 11,\n    "msg": "try again later",\n    "details": "lock held"\n}',
    );
    expect(run.codes).toEqual([1]);
  });

  it("omits empty details and maps untyped errors to 999", async () => {
    const run = await main(
      {
        add: async () => {
          throw new Error("potato <&>");
        },
      },
      addEnv,
    );
    expect(run.stdout).toBe('{\n    "code": 999,\n    "msg": "potato \\u003c\\u0026\\u003e"\n}');
    expect(run.codes).toEqual([1]);
  });

  it("prints skel's own errors the same way", async () => {
    const run = await main({}, { ...addEnv, CNI_COMMAND: "" });
    expect(run.stdout).toBe(
      '{\n    "code": 4,\n    "msg": "required env variables [CNI_COMMAND] missing"\n}',
    );
    expect(run.codes).toEqual([1]);
  });

  it("prints the about text and exits 0 when there is no command", async () => {
    const run = await main({}, {}, "CNI plugin demo v1");
    expect(run).toEqual({
      codes: [0],
      stdout: "",
      stderr: "CNI plugin demo v1\nCNI protocol versions supported: 0.4.0, 1.0.0\n",
    });
  });

  it("prints VERSION and exits 0", async () => {
    const run = await main({}, { CNI_COMMAND: "VERSION" });
    expect(run.stdout).toBe('{"cniVersion":"1.1.0","supportedVersions":["0.4.0","1.0.0"]}\n');
    expect(run.codes).toEqual([0]);
  });

  it("says so on stderr when the error cannot be written, and still exits 1", async () => {
    const broken = {
      write: (chunk: string | Uint8Array, cb?: (e?: Error | null) => void): boolean => {
        cb?.(chunk.length > 0 ? new Error("EPIPE") : null);
        return false;
      },
    };
    const run = await main({}, { ...addEnv, CNI_COMMAND: "NOPE" }, "", { stdout: broken });
    expect(run.stderr).toBe("Error writing error JSON to stdout: EPIPE\n");
    expect(run.codes).toEqual([1]);
  });

  it("is also exported under upstream's name", () => {
    expect(pluginMainFuncs).toBe(pluginMain);
  });
});

describe("formatError", () => {
  it("writes Go's struct order (code, msg, details) and Go's escaping", () => {
    expect(formatError(new CNIError(7, "bad", "x\u2028y"))).toBe(
      '{\n    "code": 7,\n    "msg": "bad",\n    "details": "x\\u2028y"\n}',
    );
  });
});

describe("pluginMain with a broken stderr", () => {
  it("still exits 0 after the about text cannot be written, as upstream ignores that error", async () => {
    const broken = {
      write: (_chunk: string | Uint8Array, cb?: (e?: Error | null) => void): boolean => {
        cb?.(new Error("EPIPE"));
        return false;
      },
    };
    const run = await main({}, {}, "about", { stderr: broken });
    expect(run.codes).toEqual([0]);
  });
});
