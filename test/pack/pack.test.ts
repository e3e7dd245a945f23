/**
 * The pack smoke test: the tarball `npm pack` makes (from the built dist/) installs into an
 * empty project without network; there every subpath loads through `import` and through
 * `require()` (require(esm), Node >= 20.19), a CommonJS TypeScript project (`module: nodenext`)
 * compiles and runs, an ESM TypeScript project compiles under `strict` and
 * `exactOptionalPropertyTypes` (declarations checked too: no skipLibCheck) and runs, and the
 * `cnitool` bin runs through `npx`. TypeScript is this repository's; the projects see this
 * repository's @types/node through `typeRoots`, so node_modules holds libcni alone.
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
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
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
  it("ships the built code, its types, the bin and the docs, and no sources, tests or examples", () => {
    for (const file of [
      "package.json",
      "README.md",
      "CHANGELOG.md",
      "LICENSE",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/cli/main.js",
      "docs/deviations/api.md",
      "bench/README.md",
    ]) {
      expect(packedFiles).toContain(file);
    }
    const stray = packedFiles.filter(
      (f) =>
        /^(src|test|examples|testdata|scripts|etc)\//.test(f) || /^bench\/(?!README\.md$)/.test(f),
    );
    expect(stray).toEqual([]);
  });

  it("ships every file the README links to, so the links work from the tarball", async () => {
    const readme = await readFile(join(repo, "README.md"), "utf8");
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1] as string)
      .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
    expect(targets.length).toBeGreaterThan(0);
    const missing = targets.filter((href) => {
      const path = href.replace(/^\.\//, "");
      return path.endsWith("/")
        ? !packedFiles.some((f) => f.startsWith(path))
        : !packedFiles.includes(path);
    });
    expect(missing).toEqual([]);
  });

  it("ships source maps that carry their sources, and no declaration maps", async () => {
    const maps = packedFiles.filter((f) => f.endsWith(".map"));
    expect(maps.filter((f) => !f.endsWith(".js.map"))).toEqual([]);
    expect(maps).toContain("dist/index.js.map");
    const installed = join(project, "node_modules", "libcni");
    const withoutSources: string[] = [];
    for (const map of maps) {
      const parsed = JSON.parse(await readFile(join(installed, map), "utf8")) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      const content = parsed.sourcesContent ?? [];
      if (content.length !== parsed.sources.length || content.some((c) => typeof c !== "string")) {
        withoutSources.push(map);
      }
    }
    expect(withoutSources).toEqual([]);
  });

  it("declares where the project lives and builds before it is packed", async () => {
    const pkg = JSON.parse(await readFile(join(repo, "package.json"), "utf8"));
    expect(pkg.repository.url).toMatch(/^git\+https:\/\/.+\.git$/);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs.url).toMatch(/^https:\/\//);
    expect(pkg.scripts.prepack).toContain("npm run build");
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

  it("loads every subpath through require() from CommonJS", async () => {
    const script = `
      const main = require("libcni");
      const types = require("libcni/types");
      const version = require("libcni/version");
      const invoke = require("libcni/invoke");
      const skel = require("libcni/skel");
      const utils = require("libcni/utils");
      console.log(JSON.stringify({
        CNIConfig: typeof main.CNIConfig,
        CNIError: typeof types.CNIError,
        current: version.current(),
        RawExec: typeof invoke.RawExec,
        pluginMain: typeof skel.pluginMain,
        validateContainerID: utils.validateContainerID("bad id")?.msg,
      }));`;
    const r = await execa(process.execPath, ["--input-type=commonjs", "-e", script], {
      cwd: project,
    });
    expect(JSON.parse(String(r.stdout))).toEqual({
      CNIConfig: "function",
      CNIError: "function",
      current: "1.1.0",
      RawExec: "function",
      pluginMain: "function",
      validateContainerID: "invalid characters in containerID",
    });
  });

  it("has no module with top-level await, which require() cannot load (the bin aside)", async () => {
    const dist = join(project, "node_modules", "libcni", "dist");
    const modules = (await readdir(dist, { recursive: true }))
      .filter((f) => f.endsWith(".js") && f !== join("cli", "main.js"))
      .sort();
    expect(modules).toContain("index.js");
    const script = `
      const failed = [];
      for (const m of ${JSON.stringify(modules)}) {
        try { require(${JSON.stringify(`${dist}/`)} + m); } catch (e) { failed.push(m + ": " + e.code); }
      }
      console.log(JSON.stringify(failed));`;
    const r = await execa(process.execPath, ["--input-type=commonjs", "-e", script], {
      cwd: project,
    });
    expect(JSON.parse(String(r.stdout))).toEqual([]);
  });

  it("compiles and runs a CommonJS TypeScript project (module nodenext)", async () => {
    const dir = await compiledConsumer("cjs-ts");
    expect(await readFile(join(dir, "index.js"), "utf8")).toContain('require("libcni")');
    const r = await execa(process.execPath, ["index.js"], { cwd: dir });
    expect(JSON.parse(String(r.stdout))).toEqual({
      module: "object",
      cni: true,
      ifName: "eth0",
      error: 999,
      current: "1.1.0",
      exec: "function",
      pluginMain: "function",
      ifname: "interface name is empty",
    });
  });

  it("compiles and runs an ESM TypeScript project under strict and exactOptionalPropertyTypes", async () => {
    const dir = await compiledConsumer("esm-ts");
    const r = await execa(process.execPath, ["index.js"], { cwd: dir });
    expect(JSON.parse(String(r.stdout))).toEqual({
      cni: true,
      name: "n",
      list: true,
      result: true,
      onAdd: "function",
      versions: ["1.0.0"],
      error: true,
      rt: 1,
    });
  });
});

/** A CommonJS consumer: `import` compiles to `require("libcni")`, run through require(esm). */
const cjsSource = `import { CNIConfig, type RuntimeConf } from "libcni";
import { CNIError, ErrInternal } from "libcni/types";
import { current } from "libcni/version";
import { RawExec } from "libcni/invoke";
import { pluginMain } from "libcni/skel";
import { validateInterfaceName } from "libcni/utils";

const rt: RuntimeConf = { containerID: "c1", netNS: "/var/run/netns/c1", ifName: "eth0" };
const cni = new CNIConfig({ path: ["/opt/cni/bin"] });
console.log(JSON.stringify({
  module: typeof module,
  cni: cni instanceof CNIConfig,
  ifName: rt.ifName,
  error: new CNIError(ErrInternal, "boom").code,
  current: current(),
  exec: typeof RawExec,
  pluginMain: typeof pluginMain,
  ifname: validateInterfaceName("")?.msg,
}));
`;

/** An ESM consumer, with the optional properties a strict project writes. */
const esmSource = `import { CNIConfig, networkConfFromBytes, type NetworkConfigList, type RuntimeConf } from "libcni";
import { type Result, CNIError } from "libcni/types";
import { pluginSupports } from "libcni/version";
import { FakeExec } from "libcni/invoke";
import type { CmdArgs } from "libcni/skel";
import { validateContainerID } from "libcni/utils";

const rt: RuntimeConf = {
  containerID: "c1",
  netNS: "/var/run/netns/c1",
  ifName: "eth0",
  args: [["K8S_POD_NAME", "p"]],
  capabilityArgs: { portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }] },
};
const cni = new CNIConfig({ path: [], cacheDir: "/nonexistent", exec: new FakeExec() });
const conf = networkConfFromBytes(new TextEncoder().encode('{"cniVersion":"1.0.0","name":"n","type":"t"}'));
const list: NetworkConfigList | undefined = undefined;
let result: Result | undefined;
const onAdd = (args: CmdArgs): string => args.containerID;
const info = pluginSupports("1.0.0");
console.log(JSON.stringify({
  cni: cni instanceof CNIConfig,
  name: conf.name,
  list: list === undefined,
  result: result === undefined,
  onAdd: typeof onAdd,
  versions: info.supportedVersions(),
  error: validateContainerID("") instanceof CNIError,
  rt: rt.args?.length,
}));
`;

/** A careful consumer's options: strict, exactOptionalPropertyTypes, nodenext. */
const consumerOptions = (): ts.CompilerOptions => ({
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2023.d.ts"],
  types: ["node"],
  typeRoots: [join(repo, "node_modules", "@types")],
  strict: true,
  exactOptionalPropertyTypes: true,
});

let consumers: Promise<void> | undefined;

/**
 * The TypeScript projects inside the smoke project (so `libcni` resolves to the installed
 * tarball), compiled by this repository's TypeScript in one program: each file's module format
 * comes from its own package.json, as tsc decides it. Type errors anywhere in the consumers'
 * files or in libcni's shipped declarations fail (what skipLibCheck: false reports for libcni;
 * @types/node is not ours to check, and checking it would triple the time).
 */
async function compiledConsumer(name: "cjs-ts" | "esm-ts"): Promise<string> {
  consumers ??= (async () => {
    const roots: string[] = [];
    for (const [dir, type, source] of [
      ["cjs-ts", "commonjs", cjsSource],
      ["esm-ts", "module", esmSource],
    ] as const) {
      await mkdir(join(project, dir));
      await writeFile(join(project, dir, "package.json"), JSON.stringify({ name: dir, type }));
      await writeFile(join(project, dir, "index.ts"), source);
      roots.push(join(project, dir, "index.ts"));
    }
    const program = ts.createProgram(roots, consumerOptions());
    const libcni = join(project, "node_modules", "libcni") + sep;
    const checked = program
      .getSourceFiles()
      .filter((f) => roots.includes(f.fileName) || f.fileName.startsWith(libcni));
    expect(checked.filter((f) => f.fileName.endsWith(".d.ts")).length).toBeGreaterThan(6);
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...checked.flatMap((f) => [
        ...program.getSyntacticDiagnostics(f),
        ...program.getSemanticDiagnostics(f),
      ]),
      ...program.emit().diagnostics,
    ];
    const host: ts.FormatDiagnosticsHost = {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => project,
      getNewLine: () => "\n",
    };
    expect(ts.formatDiagnostics(diagnostics, host)).toBe("");
  })();
  await consumers;
  return join(project, name);
}
