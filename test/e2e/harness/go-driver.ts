/**
 * Go libcni 1.1.2 (Debian's golang-github-appc-cni-dev) as a second runtime on the same e2e
 * world: the conformance suite's driver (test/conformance/go/cnidriver) built into a temp dir
 * of this process, then run with the world's wrapper dir as its plugin path and the world's
 * cache dir, so Go and the TypeScript library share one host's result cache.
 */
import { execFile } from "node:child_process";
import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { RuntimeConf } from "../../../src/api/types.js";
import { uniqueName } from "./netns.js";
import { run } from "./sh.js";
import type { E2EWorld } from "./world.js";

const execFileP = promisify(execFile);

/** Where Debian puts the libcni 1.1.2 sources (GOPATH mode: the package has no go.mod). */
const goPath = "/usr/share/gocode";
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** The environment Go and the plugins it starts get: ours without any CNI_* variable. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("CNI_")) env[k] = v;
  }
  return { ...env, ...extra };
}

/** An error of one driver op: the *types.Error code when there is one, and the message. */
export interface GoError {
  code: number | null;
  msg: string;
}

/** What the driver reports for one op (the fields the e2e scenarios read). */
export interface GoOp {
  op: string;
  /** Go's json.Marshal of the result (add, getCachedResult). */
  result?: string;
  error?: GoError;
}

/** The driver built once per test file; {@link GoDriver.dispose} removes it. */
export class GoDriver {
  private constructor(
    private readonly dir: string,
    /** The built binary. */
    readonly path: string,
  ) {}

  /**
   * Builds the driver into a fresh temp dir (named like the world's, so a killed run's copy is
   * swept). Missing Go or libcni sources fail the suite, never skip it.
   */
  static async build(): Promise<GoDriver> {
    await access(join(goPath, "src/github.com/containernetworking/cni/libcni/api.go")).catch(() => {
      throw new Error(
        `Go libcni 1.1.2 sources not found under ${goPath} (apt-get install golang-github-appc-cni-dev golang-go)`,
      );
    });
    const dir = await mkdtemp(join(tmpdir(), `${uniqueName("godriver")}-`));
    const path = join(dir, "cnidriver");
    try {
      await execFileP("go", ["build", "-o", path, "./test/conformance/go/cnidriver"], {
        cwd: repoRoot,
        env: cleanEnv({
          GO111MODULE: "off",
          GOPATH: goPath,
          GOCACHE: join(dir, "gocache"),
          GOFLAGS: "",
        }),
      });
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    return new GoDriver(dir, path);
  }

  /**
   * Runs `ops` (the driver's op names: add, check, del, getCachedResult...) in order on one
   * attachment with Go libcni, plugins from the world's wrappers, cache in the world's dir.
   */
  async run(
    world: E2EWorld,
    confList: Uint8Array,
    rt: RuntimeConf,
    ops: readonly string[],
  ): Promise<GoOp[]> {
    const input = {
      confListB64: Buffer.from(confList).toString("base64"),
      pluginPaths: [world.binDir],
      cacheDir: world.cacheDir,
      runtimeConf: {
        containerID: rt.containerID,
        netNS: rt.netNS,
        ifName: rt.ifName,
        args: rt.args ?? null,
        capabilityArgs: rt.capabilityArgs ?? null,
      },
      ops,
      watchDirs: [],
    };
    const { stdout } = await run(this.path, [], {
      input: JSON.stringify(input),
      env: cleanEnv(),
      timeoutMs: 60_000,
    });
    const out = JSON.parse(stdout) as { ops: GoOp[] };
    return out.ops;
  }

  /** Removes the binary and its build cache. */
  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
