/**
 * A sandbox for cnitool tests: a temporary NETCONFPATH holding networks that run the noop
 * fixture plugin (scripted through its debug file), a temporary result cache, and runners for
 * `runCnitool` in-process and for the built binary as a child process.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { runCnitool } from "../../src/cli/cnitool.js";
import {
  type NoopScript,
  pluginDir,
  readDebug,
  writeDebug,
} from "../fixtures/plugins/noop-debug.js";

/** The built cnitool (needs `npm run build`). */
export const cnitoolBin = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/** What one cnitool run printed and returned. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A 1.0.0 result as noop prints it when scripted with it. */
export const resultJSON =
  '{"cniVersion":"1.0.0","interfaces":[{"name":"eth0","sandbox":"/x"}],"ips":[{"interface":0,"address":"10.1.2.3/24","gateway":"10.1.2.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{"nameservers":["10.1.2.1"]}}';

/** That result as cnitool prints it (upstream's Result.Print: 4-space indent, no newline). */
export const resultPrinted = `{
    "cniVersion": "1.0.0",
    "dns": {
        "nameservers": [
            "10.1.2.1"
        ]
    },
    "interfaces": [
        {
            "name": "eth0",
            "sandbox": "/x"
        }
    ],
    "ips": [
        {
            "address": "10.1.2.3/24",
            "gateway": "10.1.2.1",
            "interface": 0
        }
    ],
    "routes": [
        {
            "dst": "0.0.0.0/0"
        }
    ]
}`;

/** One test's world: directories, a network named `net` running noop, and runners. */
export class Sandbox {
  readonly netd: string;
  readonly cache: string;
  readonly debug: string;

  private constructor(readonly root: string) {
    this.netd = join(root, "net.d");
    this.cache = join(root, "cache");
    this.debug = join(root, "debug.json");
  }

  /** A sandbox with the network `net` (cniVersion `version`) of one noop plugin. */
  static async create(options: { version?: string; script?: NoopScript } = {}): Promise<Sandbox> {
    const box = new Sandbox(await mkdtemp(join(tmpdir(), "libcni-cli-test-")));
    await mkdir(box.netd);
    await writeDebug(box.debug, options.script ?? { reportResult: resultJSON });
    await box.network("net", options.version ?? "1.0.0");
    return box;
  }

  /** Writes a conflist `name` whose plugins are noop (with capabilities, when given). */
  async network(
    name: string,
    version: string,
    extra: Record<string, unknown> = {},
    file = `10-${name}.conflist`,
  ): Promise<void> {
    const list = {
      cniVersion: version,
      name,
      plugins: [{ type: "noop.mjs", debugFile: this.debug, ...extra }],
    };
    await writeFile(join(this.netd, file), JSON.stringify(list));
  }

  /** The environment cnitool sees: NETCONFPATH and CNI_PATH set, plus `extra`. */
  env(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
    return { NETCONFPATH: this.netd, CNI_PATH: pluginDir, ...extra };
  }

  /** Runs `runCnitool` in-process with the sandbox's environment (cwd: the sandbox). */
  async run(argv: string[], env: Record<string, string | undefined> = {}): Promise<Outcome> {
    return runInProcess(argv, this.env(env), this.root);
  }

  /** Runs the built binary with the sandbox's environment (cwd: the sandbox). */
  async exec(argv: string[], env: Record<string, string | undefined> = {}): Promise<Outcome> {
    return runBinary(argv, this.env(env), this.root);
  }

  /** What noop received on its last call. */
  lastCall() {
    return readDebug(this.debug);
  }

  /** Rescripts noop. */
  script(script: NoopScript): Promise<void> {
    return writeDebug(this.debug, script);
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}

/** `runCnitool` with collected output. */
export async function runInProcess(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd = "/",
): Promise<Outcome> {
  let stdout = "";
  let stderr = "";
  const code = await runCnitool(argv, {
    env,
    cwd,
    stdout: {
      write: (t: string) => {
        stdout += t;
      },
    },
    stderr: {
      write: (t: string) => {
        stderr += t;
      },
    },
  });
  return { code, stdout, stderr };
}

/** The built binary as a child process, with exactly `env` (plus PATH for the plugins' node). */
export async function runBinary(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd = "/",
): Promise<Outcome> {
  const r = await execa(process.execPath, [cnitoolBin, ...argv], {
    env: { PATH: process.env.PATH, ...env },
    extendEnv: false,
    cwd,
    reject: false,
    stripFinalNewline: false,
  });
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}
