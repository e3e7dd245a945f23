/**
 * The README's code blocks as a consumer's source files: which blocks are code, and what file
 * each becomes (its extension decides ESM or CommonJS, TypeScript or JavaScript).
 */

/** A fenced block of the README that is meant to compile. */
export interface CodeBlock {
  /** 1-based line of the opening fence, for messages. */
  readonly line: number;
  /** The fence's language tag. */
  readonly lang: string;
  /** The file name the block is checked as, e.g. `block-24.mts`. */
  readonly fileName: string;
  readonly code: string;
}

/**
 * Language tags checked, and the extension each gets. `ts`/`js` blocks are ES modules (top-level
 * await, `import`); `cts`/`cjs` blocks are CommonJS, and so is a `js` block that uses `require(`
 * without an `import` statement, as a CommonJS reader would paste it.
 */
const extensions: Record<string, string> = {
  ts: ".mts",
  typescript: ".mts",
  mts: ".mts",
  cts: ".cts",
  js: ".mjs",
  javascript: ".mjs",
  mjs: ".mjs",
  cjs: ".cjs",
};

function extensionOf(lang: string, code: string): string | undefined {
  const ext = extensions[lang];
  if (ext === ".mjs" && /\brequire\(/.test(code) && !/^\s*import\s/m.test(code)) return ".cjs";
  return ext;
}

/** Every fenced block with a checked language tag, in order. Fences are ``` at column 0. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)/.exec(lines[i] ?? "");
    if (open === null) continue;
    const lang = (open[1] ?? "").toLowerCase();
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ""); i++) body.push(lines[i] ?? "");
    const code = `${body.join("\n")}\n`;
    const ext = extensionOf(lang, code);
    if (ext === undefined) continue;
    blocks.push({ line: start + 1, lang, fileName: `block-${start + 1}${ext}`, code });
  }
  return blocks;
}
