/**
 * The pack smoke test: the tarball `npm pack` makes (from the built dist/) installs into an
 * empty project without network, every subpath export imports there, and its `cnitool` bin
 * runs through `npx`.
 *
 * Offline install: the dependencies come from npm's cache, which `npm ci` filled. The project's
 * lockfile records no download addresses (omit-lockfile-registry-resolved), and without them npm
 * would ask the registry for each package's metadata; so the smoke project gets a lockfile with
 * this repository's locked production dependencies and their registry tarball addresses, which
 * npm then reads from its cache by integrity.
 */
import {
  access,
  constants,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const startedAt = Date.now();
let root = "";
let project = "";
let tarball = "";
let packedFiles: string[] = [];

/** The environment for npm children: without the npm_* variables of an enclosing `npm test`. */
function npmEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.toLowerCase().startsWith("npm_")) env[k] = v;
  }
  return env;
}

function npm(args: string[], cwd: string) {
  return execa("npm", args, { cwd, env: npmEnv(), extendEnv: false, timeout: 60_000 });
}

interface LockEntry {
  version: string;
  dev?: boolean;
  [key: string]: unknown;
}

/** A lockfile for the smoke project: this repository's production dependencies, with addresses. */
async function smokeLockfile(registry: string): Promise<string> {
  const lock = JSON.parse(await readFile(join(repo, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const packages: Record<string, unknown> = { "": { name: "smoke", version: "1.0.0" } };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === "" || entry.dev === true || entry.link === true) continue;
    const name = key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
    const base = name.split("/").pop();
    const resolved = `${registry.replace(/\/$/, "")}/${name}/-/${base}-${entry.version}.tgz`;
    packages[key] = { ...entry, resolved };
  }
  return JSON.stringify(
    { name: "smoke", version: "1.0.0", lockfileVersion: 3, requires: true, packages },
    null,
    2,
  );
}

beforeAll(async () => {
  await access(join(repo, "dist", "cli", "main.js")); // npm test builds before the suite
  root = await mkdtemp(join(tmpdir(), "libcni-pack-"));
  const packed = await npm(
    ["pack", "--ignore-scripts", "--json", "--pack-destination", root],
    repo,
  );
  const [info] = JSON.parse(String(packed.stdout)) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(root, info.filename);
  packedFiles = info.files.map((f) => f.path);
  project = join(root, "project");
  await mkdir(project);
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "smoke", version: "1.0.0", private: true, type: "module" }),
  );
  const registry = String((await npm(["config", "get", "registry"], project)).stdout).trim();
  await writeFile(join(project, "package-lock.json"), await smokeLockfile(registry));
  await npm(["install", "--offline", "--no-audit", "--no-fund", tarball], project);
}, 120_000);

afterAll(async () => {
  if (root !== "") await rm(root, { recursive: true, force: true });
});

describe("npm pack", () => {
  it("ships the built code, its types and the bin, and no sources, tests or examples", () => {
    for (const file of [
      "package.json",
      "README.md",
      "LICENSE",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/cli/main.js",
    ]) {
      expect(packedFiles).toContain(file);
    }
    const stray = packedFiles.filter((f) => /^(src|test|examples|bench|testdata)\//.test(f));
    expect(stray).toEqual([]);
  });
});

describe("the tarball installed offline into an empty project", () => {
  it("installs libcni, which has no runtime dependencies", async () => {
    const installed = JSON.parse(
      await readFile(join(project, "node_modules", "libcni", "package.json"), "utf8"),
    );
    expect(installed.name).toBe("libcni");
    expect(installed.dependencies).toBeUndefined();
    const modules = (await readdir(join(project, "node_modules"))).filter(
      (n) => !n.startsWith("."),
    );
    expect(modules).toEqual(["libcni"]);
  });

  it("imports from every subpath, each with its declarations", async () => {
    const script = `
      const main = await import("libcni");
      const types = await import("libcni/types");
      const version = await import("libcni/version");
      const invoke = await import("libcni/invoke");
      const skel = await import("libcni/skel");
      const utils = await import("libcni/utils");
      console.log(JSON.stringify({
        CNIConfig: typeof main.CNIConfig,
        loadConfList: typeof main.loadConfList,
        CNIError: typeof types.CNIError,
        Result100: typeof types.Result100,
        current: version.current(),
        RawExec: typeof invoke.RawExec,
        pluginMain: typeof skel.pluginMain,
        validateContainerID: utils.validateContainerID("bad id")?.msg,
      }));`;
    const r = await execa(process.execPath, ["--input-type=module", "-e", script], {
      cwd: project,
    });
    expect(JSON.parse(String(r.stdout))).toEqual({
      CNIConfig: "function",
      loadConfList: "function",
      CNIError: "function",
      Result100: "function",
      current: "1.1.0",
      RawExec: "function",
      pluginMain: "function",
      validateContainerID: "invalid characters in containerID",
    });
    for (const sub of ["", "types/", "version/", "invoke/", "skel/", "utils/"]) {
      await access(join(project, "node_modules", "libcni", "dist", sub, "index.d.ts"));
    }
  });

  it("runs its cnitool through npx: the root help, exit 0", async () => {
    const bin = join(project, "node_modules", "libcni", "dist", "cli", "main.js");
    expect((await stat(bin)).mode & constants.S_IXUSR).not.toBe(0);
    const r = await execa("npx", ["--no-install", "cnitool", "--help"], {
      cwd: project,
      env: npmEnv(),
      extendEnv: false,
    });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(
      /^CNI Tool is a simple program that executes a CNI configuration\.\n/,
    );
    expect(String(r.stdout)).toContain("\nAvailable Commands:\n  add  ");
  });

  it("the whole smoke test stays under a minute", () => {
    expect((Date.now() - startedAt) / 1000).toBeLessThan(60);
  });
});
