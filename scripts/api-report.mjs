#!/usr/bin/env node
/**
 * The API report: one api-extractor report per entry point of package.json's `exports`, in
 * etc/, made from the built declarations in dist/ (run `npm run build` first).
 *
 *   node scripts/api-report.mjs           rewrite etc/*.api.md (`npm run api:report`)
 *   node scripts/api-report.mjs --check   fail when a report differs (`npm run api:check`)
 *
 * The entry points come from `exports`, so a new subpath gets its report without touching this
 * file. All entries share one TypeScript program (CompilerState) so the check costs one
 * compilation, not one per entry.
 */
import { spawnSync } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { CompilerState, Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const root = fileURLToPath(new URL("..", import.meta.url));
const reportFolder = join(root, "etc");
const check = process.argv.includes("--check");

const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8"));

/** Every subpath of `exports` that has declarations, with its report's file name. */
function entryPoints() {
  const entries = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target !== "object" || typeof target.types !== "string") continue;
    const suffix = subpath === "." ? "" : `-${subpath.slice(2).replaceAll("/", "-")}`;
    entries.push({
      subpath,
      dts: join(root, target.types),
      report: `${pkg.name}${suffix}.api.md`,
    });
  }
  return entries;
}

/** What a message is worth: the report already lists forgotten exports; TSDoc style is not ours. */
const messages = {
  compilerMessageReporting: { default: { logLevel: "warning" } },
  extractorMessageReporting: {
    default: { logLevel: "warning" },
    "ae-missing-release-tag": { logLevel: "none" },
    "ae-undocumented": { logLevel: "none" },
    "ae-forgotten-export": { logLevel: "none", addToApiReportFile: true },
    "ae-unresolved-link": { logLevel: "none" },
    "ae-internal-missing-underscore": { logLevel: "none" },
  },
  tsdocMessageReporting: { default: { logLevel: "none" } },
};

function configFor(entry, tempFolder) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: entry.dts,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            lib: ["ES2023"],
            types: ["node"],
            strict: true,
            skipLibCheck: true,
          },
          files: entryPoints().map((e) => e.dts),
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.report,
        reportFolder,
        reportTempFolder: tempFolder,
        includeForgottenExports: false,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages,
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(root, "package.json"),
  });
}

/** The difference between the checked-in report and the current one, as `diff -u` prints it. */
function printDiff(checkedIn, current) {
  const r = spawnSync("diff", ["-u", checkedIn, current], { encoding: "utf8" });
  if (r.stdout) process.stderr.write(r.stdout);
}

const entries = entryPoints();
const tempFolder = join(tmpdir(), `libcni-api-report-${process.pid}`);
let compilerState;
const stale = [];
let failed = false;
try {
  for (const entry of entries) {
    const config = configFor(entry, tempFolder);
    compilerState ??= CompilerState.create(config, {
      additionalEntryPoints: entries.map((e) => e.dts),
    });
    const result = Extractor.invoke(config, {
      localBuild: !check,
      compilerState,
      messageCallback(message) {
        // api-extractor's own progress lines ("copy the file ..."): this script says it once.
        if (message.category === "console") message.handled = true;
      },
    });
    if (result.errorCount > 0) failed = true;
    if (result.apiReportChanged) {
      stale.push(entry);
      if (check) printDiff(join(reportFolder, entry.report), join(tempFolder, entry.report));
    }
  }
} finally {
  await rm(tempFolder, { recursive: true, force: true });
}

// A report for an entry point that no longer exists is stale too.
const expected = new Set(entries.map((e) => e.report));
const orphans = (await readdir(reportFolder).catch(() => [])).filter(
  (f) => f.endsWith(".api.md") && !expected.has(f),
);
if (!check) for (const f of orphans) await rm(join(reportFolder, f));

if (failed) {
  console.error("api-report: api-extractor reported errors (above).");
  process.exit(1);
}
if (check && (stale.length > 0 || orphans.length > 0)) {
  const names = [
    ...stale.map((e) => `${relative(root, join(reportFolder, e.report))} (${e.subpath})`),
  ];
  for (const f of orphans)
    names.push(`${relative(root, join(reportFolder, f))} (no such entry point)`);
  console.error(
    [
      "api-report: the public API differs from the checked-in report:",
      ...names.map((n) => `  ${n}`),
      "If the change is deliberate, run `npm run build && npm run api:report` and commit etc/.",
    ].join("\n"),
  );
  process.exit(1);
}
console.log(
  check
    ? `api-report: ${entries.length} entry points match etc/`
    : `api-report: wrote ${entries.length} reports to etc/`,
);
