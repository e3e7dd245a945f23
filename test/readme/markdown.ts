/**
 * What the documentation tests read from Markdown: the files the package ships, the links and
 * headings of a file (as GitHub renders them), and the README's list of entry points.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";

/** A link of a Markdown file, outside code. */
export interface MarkdownLink {
  /** 1-based line. */
  readonly line: number;
  /** The target as written (`docs/runtime.md#errors`, `https://…`, `#anchor`). */
  readonly target: string;
}

/**
 * The lines of a Markdown file with its fenced blocks blanked (line numbers kept), and its
 * inline code too when `inline` (a link written in code is no link).
 */
function withoutCode(markdown: string, inline: boolean): string[] {
  let fence: string | undefined;
  return markdown.split("\n").map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (marker !== undefined) {
        fence = marker;
        return "";
      }
      return inline ? line.replace(/(`+).*?\1/g, "") : line;
    }
    const closes =
      marker !== undefined &&
      marker[0] === fence[0] &&
      marker.length >= fence.length &&
      /^\s*[`~]+\s*$/.test(line);
    if (closes) fence = undefined;
    return "";
  });
}

/** Every inline link `[text](target)` and reference definition `[id]: target`, outside code. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutCode(markdown, true).forEach((text, i) => {
    for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: i + 1, target: m[1] as string });
    }
    const def = /^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(text);
    if (def !== null) links.push({ line: i + 1, target: def[1] as string });
  });
  return links;
}

/**
 * GitHub's anchor of a heading: its rendered text (a link's text, no HTML), lower-cased, without
 * punctuation but `-` and `_` (github-slugger), spaces as `-`.
 */
export function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a file offers: its headings' slugs (GitHub numbers repeats) and `<a id|name>`. */
export function markdownAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCode(markdown, false)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      const slug = headingSlug(heading[1] ?? "");
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n === 0 ? slug : `${slug}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1] as string);
  }
  return anchors;
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = await Promise.all(
    entries.map((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return walk(path);
      return Promise.resolve(e.isFile() ? [path] : []);
    }),
  );
  return files.flat();
}

/**
 * The files `package.json`'s `files` ships, relative to the repository, as npm reads the
 * patterns this package uses: a path (a file, or a directory shipped whole) or `dir/**\/*.ext`.
 * Generated output that is not committed (`docs/api/`, typedoc's) is left out.
 */
export async function shippedFiles(repo: string): Promise<string[]> {
  const pkg = JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as { files: string[] };
  const files = new Set<string>(["package.json"]);
  for (const pattern of pkg.files) {
    const glob = /^(.*?)\/\*\*\/\*(\.[^/*]+)$/.exec(pattern);
    if (glob !== null) {
      const [, dir, ext] = glob as unknown as [string, string, string];
      for (const f of await walk(join(repo, dir))) {
        const rel = relative(repo, f);
        if (rel.endsWith(ext) && !rel.startsWith("docs/api/")) files.add(rel);
      }
      continue;
    }
    if (/[*?[]/.test(pattern)) throw new Error(`a files pattern this test cannot read: ${pattern}`);
    const info = await stat(join(repo, pattern)).catch(() => undefined);
    if (info?.isDirectory()) {
      for (const f of await walk(join(repo, pattern))) files.add(relative(repo, f));
    } else if (info?.isFile()) {
      files.add(pattern);
    }
  }
  return [...files].sort();
}

/** The `exports` of package.json as the names a user imports: `libcni`, `libcni/types`, ... */
export async function exportedEntryPoints(repo: string): Promise<string[]> {
  const pkg = JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, unknown>;
  };
  return Object.keys(pkg.exports)
    .filter((key) => key !== "./package.json")
    .map((key) => (key === "." ? pkg.name : `${pkg.name}/${key.replace(/^\.\//, "")}`));
}

/**
 * The entry points the README lists: the first column of the table under its
 * "## Entry points" heading (a row is `` | `libcni/x` | what it holds | guide | ``).
 */
export function readmeEntryPoints(readme: string): string[] {
  const lines = readme.split("\n");
  const start = lines.findIndex((l) => /^##\s+Entry points\s*$/.test(l));
  if (start === -1) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^##\s/.test(line)) break;
    const row = /^\|\s*`([^`]+)`\s*\|/.exec(line);
    if (row !== null) names.push(row[1] as string);
  }
  return names;
}
