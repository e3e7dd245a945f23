/**
 * The Markdown the package ships (package.json `files`: README.md, CHANGELOG.md, docs/**, the
 * bench and native READMEs) links only to what it ships: a relative link that leaves the
 * tarball (`../testdata/...`, `examples/...`, `src/...`) is dead on npm and in an installed
 * package, so such a target is written as a repository link instead. Every relative link must
 * reach a shipped file (a directory: one holding a shipped file), and its `#anchor` a heading
 * (or `<a id>`) of the file it names; a link to this repository's own `blob/main/` or
 * `tree/main/` must name a path that exists. Reads the working tree, builds nothing.
 */
import { readFile, stat } from "node:fs/promises";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { headingSlug, markdownAnchors, markdownLinks, shippedFiles } from "./markdown.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
let shipped: string[] = [];
let repositoryPrefix = "";

beforeAll(async () => {
  shipped = await shippedFiles(repo);
  const pkg = JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as {
    repository: { url: string };
  };
  // git+https://github.com/owner/name.git -> https://github.com/owner/name/
  repositoryPrefix = `${pkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, "")}/`;
});

const anchorsOf = new Map<string, Promise<Set<string>>>();
function anchors(file: string): Promise<Set<string>> {
  let found = anchorsOf.get(file);
  if (found === undefined) {
    found = readFile(join(repo, file), "utf8").then(markdownAnchors);
    anchorsOf.set(file, found);
  }
  return found;
}

/** What is wrong with one link of `file`, or undefined. */
async function problem(file: string, target: string): Promise<string | undefined> {
  if (target.startsWith(repositoryPrefix)) {
    const own = /^(?:blob|tree)\/main\/([^#?]+)/.exec(target.slice(repositoryPrefix.length));
    if (own === null) return undefined; // issues, the repository's front page...
    const path = decodeURIComponent(own[1] as string).replace(/\/$/, "");
    const exists = await stat(join(repo, path)).then(
      () => true,
      () => false,
    );
    return exists ? undefined : `the repository has no ${path}`;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // another site, mailto:
  const [pathPart = "", anchor] = target.split("#", 2);
  const resolved =
    pathPart === "" ? file : posix.normalize(posix.join(posix.dirname(file), pathPart));
  if (resolved.startsWith("../")) return "leaves the repository";
  const isDir = pathPart.endsWith("/") || shipped.some((f) => f.startsWith(`${resolved}/`));
  if (isDir) {
    const dir = resolved.replace(/\/$/, "");
    if (!shipped.some((f) => f.startsWith(`${dir}/`))) {
      return `${dir}/ holds no shipped file (link to ${repositoryPrefix}tree/main/${dir})`;
    }
    return anchor === undefined ? undefined : "an anchor on a directory";
  }
  if (!shipped.includes(resolved)) {
    return `${resolved} is not shipped (link to ${repositoryPrefix}blob/main/${resolved})`;
  }
  if (anchor !== undefined && resolved.endsWith(".md")) {
    if (!(await anchors(resolved)).has(decodeURIComponent(anchor))) {
      return `${resolved} has no heading #${anchor}`;
    }
  }
  return undefined;
}

describe("links of the shipped Markdown", () => {
  it("ships the README, the guides and the other Markdown files it should", () => {
    const markdown = shipped.filter((f) => f.endsWith(".md"));
    for (const f of ["README.md", "CHANGELOG.md", "docs/runtime.md", "bench/README.md"]) {
      expect(markdown).toContain(f);
    }
    expect(markdown.some((f) => f.startsWith("docs/deviations/"))).toBe(true);
  });

  it("every relative link reaches a shipped file and heading; repository links name a path that exists", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const file of shipped.filter((f) => f.endsWith(".md"))) {
      const text = await readFile(join(repo, file), "utf8");
      for (const link of markdownLinks(text)) {
        checked++;
        const wrong = await problem(file, link.target);
        if (wrong !== undefined) failures.push(`${file}:${link.line} (${link.target}): ${wrong}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(failures.join("\n")).toBe("");
  });
});

describe("markdownLinks, markdownAnchors and headingSlug", () => {
  it("take links outside code only, and reference definitions", () => {
    const md = [
      "See [the guide](docs/runtime.md#errors) and [site](https://example.org).",
      "`[not a link](nowhere.md)` in code",
      "```md",
      "[nor this](nowhere.md)",
      "```",
      "[ref]: ../bench/README.md",
    ].join("\n");
    expect(markdownLinks(md)).toEqual([
      { line: 1, target: "docs/runtime.md#errors" },
      { line: 1, target: "https://example.org" },
      { line: 6, target: "../bench/README.md" },
    ]);
  });

  it("slug headings as GitHub does: code and punctuation dropped, repeats numbered", () => {
    expect(headingSlug("Debian's portmap fails CHECK")).toBe("debians-portmap-fails-check");
    expect(headingSlug("`await using`, and the plain form")).toBe("await-using-and-the-plain-form");
    expect(headingSlug("An integration test: libcni/testing")).toBe(
      "an-integration-test-libcnitesting",
    );
    expect(headingSlug("Kubernetes' NetworkDeviceData (KEP-4817)")).toBe(
      "kubernetes-networkdevicedata-kep-4817",
    );
    const md = '# A\n## Errors\n### Errors\n```sh\n# not a heading\n```\n<a id="x-y"></a>';
    expect([...markdownAnchors(md)]).toEqual(["a", "errors", "errors-1", "x-y"]);
  });
});
