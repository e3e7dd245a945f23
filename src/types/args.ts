/**
 * CNI_ARGS parsing (upstream `types/args.go`): where Go fills a struct's fields by reflection,
 * an `ArgsSpec` maps each name (matched exactly, as `FieldByName`) to `"bool"`, `"string"`,
 * `"ip"` or a parser (any other TextUnmarshaler). The struct embeds CommonArgs, as upstream's do:
 * `IgnoreUnknown` is always understood, and `CommonArgs` names that struct (no TextUnmarshaler).
 *
 * @example
 * const args = loadArgs("IgnoreUnknown=1;K8S_POD_NAME=web", { K8S_POD_NAME: "string" });
 * args.K8S_POD_NAME; // "web" (string | undefined)
 */

import { setOwn } from "../encoding/parse.js";
import { ArgsError, UnmarshalableArgsError } from "../errors/types.js";
import { messageOf } from "../internal/error-message.js";
import { goToLower } from "../internal/go-lower.js";
import { goQuote } from "../internal/go-quote.js";
import { ipUnmarshalText } from "./ip.js";

/** How one argument's text is read: a named type or a parser (Go's `UnmarshalText`). */
export type ArgType = "bool" | "string" | "ip" | ((text: string) => unknown);

/** The arguments a caller understands: name -> type. */
export type ArgsSpec = Record<string, ArgType>;

/** The value type an `ArgType` parses to. */
export type ArgValue<T extends ArgType> = T extends "bool"
  ? boolean
  : T extends "string"
    ? string
    : T extends "ip"
      ? Uint8Array
      : T extends (text: string) => infer R
        ? R
        : never;

/** The record `loadArgs` returns: every argument optional, plus `IgnoreUnknown`. */
export type LoadedArgs<S extends ArgsSpec> = { [K in keyof S]?: ArgValue<S[K]> } & {
  IgnoreUnknown?: boolean;
};

/**
 * Upstream `UnmarshallableBool.UnmarshalText`: "1"/"true" and "0"/"false" in any case;
 * anything else throws `boolean unmarshal error: invalid input <lower-cased text>`.
 */
export function parseUnmarshallableBool(text: string): boolean {
  const s = goToLower(text);
  if (s === "1" || s === "true") return true;
  if (s === "0" || s === "false") return false;
  throw new ArgsError(`boolean unmarshal error: invalid input ${s}`);
}

/** Upstream `UnmarshallableString.UnmarshalText`: the text itself. */
export function parseUnmarshallableString(text: string): string {
  return text;
}

function parserFor(name: string, type: unknown): (text: string) => unknown {
  switch (type) {
    case "bool":
      return parseUnmarshallableBool;
    case "string":
      return parseUnmarshallableString;
    case "ip":
      return ipUnmarshalText;
  }
  if (typeof type === "function") return type as (text: string) => unknown;
  throw new UnmarshalableArgsError(
    `ARGS: cannot unmarshal into field '${name}' - type '${String(type)}' does not implement encoding.TextUnmarshaler`,
  );
}

/**
 * Upstream `LoadArgs`: parses "K=V;K2=V2" against `spec` (the last occurrence of a key wins;
 * unknown keys are an error unless `IgnoreUnknown` is true). Throws `ArgsError` with upstream's
 * texts.
 */
export function loadArgs<S extends ArgsSpec>(args: string, spec: S): LoadedArgs<S> {
  const out: Record<string, unknown> = {};
  if (args === "") return out as LoadedArgs<S>;
  const unknown: string[] = [];
  for (const pair of args.split(";")) {
    const kv = pair.split("=");
    if (kv.length !== 2) throw new ArgsError(`ARGS: invalid pair ${goQuote(pair)}`);
    const [key, value] = kv;
    // The embedded CommonArgs: its field IgnoreUnknown, and itself by name, as Go's FieldByName.
    const common =
      key === "IgnoreUnknown" ? "bool" : key === "CommonArgs" ? "*types.CommonArgs" : undefined;
    const type = common ?? (Object.hasOwn(spec, key) ? spec[key] : undefined);
    if (type === undefined) {
      unknown.push(pair);
      continue;
    }
    const parse = parserFor(key, type);
    try {
      setOwn(out, key, parse(value));
    } catch (error) {
      const text = `ARGS: error parsing value of pair ${goQuote(pair)}: ${messageOf(error)}`;
      throw new ArgsError(text, { cause: error });
    }
  }
  if (unknown.length > 0 && out.IgnoreUnknown !== true) {
    throw new ArgsError(`ARGS: unknown args [${unknown.map(goQuote).join(" ")}]`);
  }
  return out as LoadedArgs<S>;
}
