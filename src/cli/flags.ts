/**
 * Flag parsing as spf13/pflag 1.0.6 does it for upstream's cobra-based cnitool, so that every
 * command line upstream accepts (`-i eth1`, `-ieth1`, `-i=eth1`, `--ifname=eth1`, flags between
 * and after the positional arguments, `--` ending the flags) means the same here, and every
 * one it refuses is refused with pflag's own message.
 */

import { goQuoteRune } from "../internal/go-quote.js";

/** One flag: a string flag takes a value; a bool flag (help) takes none, or `=<bool>`. */
export interface FlagSpec {
  /** The long name (`ifname` for `--ifname`). */
  readonly name: string;
  /** The one-letter shorthand (`i` for `-i`), if any. */
  readonly short?: string;
  readonly kind: "string" | "bool";
  readonly usage: string;
  /** The value when not given; printed as `(default "...")` in usage when not empty. */
  readonly defValue: string;
}

/** The outcome of parsing: values of the flags given, and the remaining arguments. */
export interface ParsedFlags {
  /** The value of each flag that appeared (the last occurrence wins), by long name. */
  readonly values: ReadonlyMap<string, string>;
  /** Positional arguments, in order, including everything after `--`. */
  readonly args: string[];
}

/** A command line pflag refuses; the message is pflag's. */
export class FlagError extends Error {}

/** Go's `strconv.ParseBool`. */
function parseBool(value: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  return undefined;
}

/**
 * Parses `argv` against `flags` with flags and positional arguments interspersed, as pflag.
 * @throws FlagError with pflag's message (`unknown flag: --x`, `flag needs an argument: 'i' in -i`, ...).
 */
export function parseFlags(argv: readonly string[], flags: readonly FlagSpec[]): ParsedFlags {
  const values = new Map<string, string>();
  const args: string[] = [];
  const set = (flag: FlagSpec, value: string): void => {
    if (flag.kind === "bool" && parseBool(value) === undefined) {
      const name = flag.short ? `-${flag.short}, --${flag.name}` : `--${flag.name}`;
      throw new FlagError(
        `invalid argument "${value}" for "${name}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`,
      );
    }
    values.set(flag.name, value);
  };

  /** pflag `parseLongArg`: `--name`, `--name=value`, `--name value`. */
  const long = (s: string, rest: string[]): string[] => {
    const body = s.slice(2);
    if (body === "" || body[0] === "-" || body[0] === "=") {
      throw new FlagError(`bad flag syntax: ${s}`);
    }
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(0, eq);
    const flag = flags.find((f) => f.name === name);
    if (!flag) throw new FlagError(`unknown flag: --${name}`);
    if (eq >= 0 || flag.kind === "bool") {
      set(flag, eq >= 0 ? body.slice(eq + 1) : "true");
      return rest;
    }
    if (rest.length === 0) throw new FlagError(`flag needs an argument: ${s}`);
    set(flag, rest[0]);
    return rest.slice(1);
  };

  /** pflag `parseShortArg`: a run of letters (`-hi eth1`), `-ivalue`, `-i=value`, `-i value`. */
  const short = (s: string, rest: string[]): string[] => {
    let shorthands = s.slice(1);
    let remaining = rest;
    while (shorthands.length > 0) {
      const c = shorthands[0];
      const where = `${goQuoteRune(c.codePointAt(0) ?? 0)} in -${shorthands}`;
      const flag = flags.find((f) => f.short === c);
      if (!flag) throw new FlagError(`unknown shorthand flag: ${where}`);
      if (shorthands.length > 2 && shorthands[1] === "=") {
        set(flag, shorthands.slice(2));
        shorthands = "";
      } else if (flag.kind === "bool") {
        set(flag, "true");
        shorthands = shorthands.slice(1);
      } else if (shorthands.length > 1) {
        set(flag, shorthands.slice(1));
        shorthands = "";
      } else if (rest.length > 0) {
        // pflag hands every letter of the run the arguments as they were before the run.
        set(flag, rest[0]);
        remaining = rest.slice(1);
        shorthands = "";
      } else {
        throw new FlagError(`flag needs an argument: ${where}`);
      }
    }
    return remaining;
  };

  let rest = [...argv];
  while (rest.length > 0) {
    const s = rest[0];
    rest = rest.slice(1);
    if (s.length < 2 || s[0] !== "-") {
      args.push(s);
    } else if (s === "--") {
      args.push(...rest);
      break;
    } else {
      rest = s[1] === "-" ? long(s, rest) : short(s, rest);
    }
  }
  return { values, args };
}

/** A parsed bool flag's value (only called for values {@link parseFlags} accepted). */
export function flagIsTrue(parsed: ParsedFlags, name: string): boolean {
  const value = parsed.values.get(name);
  return value !== undefined && parseBool(value) === true;
}

/**
 * cobra's view of a word while it looks for the subcommand: a flag without `=` takes the next
 * word as its value (all of cnitool's flags are known to take one at that point).
 */
const takesNextWord = (s: string): boolean =>
  !s.includes("=") && (s.startsWith("--") || (s.startsWith("-") && s.length === 2));

/**
 * cobra's `stripFlags`: the words of `argv` that are not flags or their values; stops at `--`,
 * or at a flag with at most one word after it.
 */
export function stripFlags(argv: readonly string[]): string[] {
  const words: string[] = [];
  let rest = [...argv];
  while (rest.length > 0) {
    const s = rest[0];
    rest = rest.slice(1);
    if (s === "--") break;
    if (takesNextWord(s)) {
      if (rest.length <= 1) break;
      rest = rest.slice(1);
    } else if (s !== "" && !s.startsWith("-")) {
      words.push(s);
    }
  }
  return words;
}

/** cobra's `argsMinusFirstX`: `argv` without the first word equal to `word` that is no flag value. */
export function argsMinusFirst(argv: readonly string[], word: string): string[] {
  for (let pos = 0; pos < argv.length; pos++) {
    const s = argv[pos];
    if (s === "--") break;
    if (takesNextWord(s)) {
      pos++;
    } else if (!s.startsWith("-") && s === word) {
      return [...argv.slice(0, pos), ...argv.slice(pos + 1)];
    }
  }
  return [...argv];
}
