/**
 * Every ```ts / ```js block of README.md compiles, as a user's file would, against the built
 * package: each block is a file in a temporary project whose node_modules/libcni is this
 * repository (so `libcni/...` resolves through package.json's `exports` to dist/; the
 * devDependency `@opentelemetry/api` is linked beside it for the observability example), type-checked
 * with `strict`, `exactOptionalPropertyTypes` and `module: nodenext` (JavaScript blocks with
 * `checkJs`). A block that does not compile fails here with tsc's message and the README line.
 * `npm test` builds dist/ before the suite.
 */
import { access, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CodeBlock, codeBlocks } from "./readme-blocks.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
let project = "";
let blocks: CodeBlock[] = [];
let diagnostics = new Map<string, string[]>();

/** The compiler options of a careful consumer project. */
const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2023.d.ts"],
  types: ["node"],
  typeRoots: [join(repo, "node_modules", "@types")],
  strict: true,
  exactOptionalPropertyTypes: true,
  allowJs: true,
  checkJs: true,
  noEmit: true,
  skipLibCheck: true, // the declarations themselves are checked by test/pack
};

beforeAll(async () => {
  await access(join(repo, "dist", "index.d.ts")); // npm test builds before the suite
  blocks = codeBlocks(await readFile(join(repo, "README.md"), "utf8"));
  project = await mkdtemp(join(tmpdir(), "libcni-readme-"));
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "readme", private: true, type: "module" }),
  );
  await mkdir(join(project, "node_modules"));
  await symlink(repo, join(project, "node_modules", "libcni"), "dir");
  // The observability example imports OpenTelemetry's API, as a user's project would have it.
  const otel = join(repo, "node_modules", "@opentelemetry");
  await symlink(otel, join(project, "node_modules", "@opentelemetry"), "dir");
  const files = blocks.map((b) => join(project, b.fileName));
  await Promise.all(blocks.map((b, i) => writeFile(files[i] as string, b.code)));

  const program = ts.createProgram(files, options);
  diagnostics = new Map(files.map((f) => [f, []]));
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => project,
    getNewLine: () => "\n",
  };
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName;
    const key = file !== undefined && diagnostics.has(file) ? file : (files[0] ?? "");
    diagnostics.get(key)?.push(ts.formatDiagnostic(d, host).trim());
  }
}, 60_000);

afterAll(async () => {
  if (project !== "") await rm(project, { recursive: true, force: true });
});

describe("README code blocks", () => {
  it("finds the quick start and the skel example among them", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.some((b) => b.code.includes("new CNIConfig("))).toBe(true);
    expect(blocks.some((b) => b.code.includes('from "libcni/skel"'))).toBe(true);
  });

  it("each compiles under strict and exactOptionalPropertyTypes against the built package", () => {
    const failures = blocks
      .map((b) => ({ b, errors: diagnostics.get(join(project, b.fileName)) ?? [] }))
      .filter(({ errors }) => errors.length > 0)
      .map(({ b, errors }) => `README.md:${b.line} (\`\`\`${b.lang}):\n  ${errors.join("\n  ")}`);
    expect(failures.join("\n\n")).toBe("");
  });
});

describe("codeBlocks", () => {
  it("keeps ts and js blocks, as ES modules unless they are CommonJS, and drops the rest", () => {
    const md = [
      "```sh",
      "npm test",
      "```",
      "```ts",
      'import { current } from "libcni/version";',
      "```",
      "```js",
      'const { current } = require("libcni/version");',
      "```",
      "```cts",
      'import { current } from "libcni/version";',
      "```",
      "```json",
      "{}",
      "```",
    ].join("\n");
    expect(codeBlocks(md).map((b) => [b.line, b.fileName])).toEqual([
      [4, "block-4.mts"],
      [7, "block-7.cjs"],
      [10, "block-10.cts"],
    ]);
  });
});
