/**
 * CNI_ARGS parsing (upstream types/args_test.go), plus upstream's error texts as Go prints them
 * (checked by running upstream's LoadArgs on a struct with CommonArgs, an IP, an
 * UnmarshallableString Name, an UnmarshallableBool Flag and a *UnmarshallableString PStr).
 */
import { describe, expect, it } from "vitest";
import {
  ArgsError,
  type ArgsSpec,
  loadArgs,
  parseUnmarshallableBool,
  parseUnmarshallableString,
  UnmarshalableArgsError,
} from "../../src/types/index.js";
import { ipToString, newIP } from "../../src/types/ip.js";

describe("UnmarshallableBool (upstream)", () => {
  it.each([
    [["True", "true", "1"], true],
    [["False", "false", "0"], false],
  ] as const)("parses %j to %s", (inputs, expected) => {
    for (const s of inputs) expect(parseUnmarshallableBool(s)).toBe(expected);
  });

  it("accepts any case and rejects anything else, quoting the lower-cased input", () => {
    expect(parseUnmarshallableBool("TRUE")).toBe(true);
    expect(parseUnmarshallableBool("fAlSe")).toBe(false);
    expect(() => parseUnmarshallableBool("invalid")).toThrow(ArgsError);
    expect(() => parseUnmarshallableBool("YES")).toThrow(
      "boolean unmarshal error: invalid input yes",
    );
    // Go's strings.ToLower maps U+0130 to "i", where JavaScript's gives "i" and a combining dot.
    expect(() => parseUnmarshallableBool("\u0130")).toThrow(/invalid input i$/);
  });
});

describe("UnmarshallableString (upstream)", () => {
  it.each(["", "notempty"])("parses %j to itself", (s) => {
    expect(parseUnmarshallableString(s)).toBe(s);
  });
});

const spec = { IP: "ip", Name: "string", Flag: "bool", PStr: "string" } satisfies ArgsSpec;

describe("loadArgs (upstream LoadArgs)", () => {
  it("succeeds when no arguments are passed", () => {
    expect(loadArgs("", {})).toEqual({});
  });

  it("succeeds when unknown arguments are passed and ignored", () => {
    expect(loadArgs("IgnoreUnknown=True;Unk=nown", {})).toEqual({ IgnoreUnknown: true });
  });

  it("fails when unknown arguments are passed and not ignored", () => {
    expect(() => loadArgs("Unk=nown", {})).toThrow(
      new ArgsError('ARGS: unknown args ["Unk=nown"]'),
    );
  });

  it("fails when unknown arguments are passed and explicitly not ignored", () => {
    expect(() => loadArgs("IgnoreUnknown=0, Unk=nown", {})).toThrow(
      'ARGS: invalid pair "IgnoreUnknown=0, Unk=nown"',
    );
    expect(() => loadArgs("IgnoreUnknown=0;Unk=nown", {})).toThrow(
      'ARGS: unknown args ["Unk=nown"]',
    );
  });

  it("takes CommonArgs as Go's FieldByName finds the embedded struct: not a TextUnmarshaler", () => {
    const text =
      "ARGS: cannot unmarshal into field 'CommonArgs' - type '*types.CommonArgs' does not implement encoding.TextUnmarshaler";
    expect(() => loadArgs("CommonArgs=x", {})).toThrow(text);
    expect(() => loadArgs("IgnoreUnknown=1;CommonArgs=x", {})).toThrow(text);
  });

  it("succeeds when known arguments are passed", () => {
    expect(loadArgs("IgnoreUnknown=1", {})).toEqual({ IgnoreUnknown: true });
  });

  it("fails when a known argument's type cannot read text", () => {
    const bad = { IP: "ipnet" } as unknown as ArgsSpec;
    expect(() => loadArgs("IP=10.0.0.0/24", bad)).toThrow(UnmarshalableArgsError);
    expect(() => loadArgs("IP=10.0.0.0/24", bad)).toThrow(
      "ARGS: cannot unmarshal into field 'IP' - type 'ipnet' does not implement encoding.TextUnmarshaler",
    );
  });

  it("loads a known argument of an IP type", () => {
    const args = loadArgs("IP=10.0.0.0", spec);
    expect(ipToString(args.IP ?? new Uint8Array(0))).toBe("10.0.0.0");
  });

  it("loads with a custom parser (any TextUnmarshaler)", () => {
    const args = loadArgs("Port=8080", { Port: (s: string) => Number.parseInt(s, 10) });
    expect(args.Port).toBe(8080);
  });
});

describe("loadArgs: upstream's texts for every failure", () => {
  it.each([
    [
      "IP=10.0.0.x",
      'ARGS: error parsing value of pair "IP=10.0.0.x": invalid IP address: 10.0.0.x',
    ],
    [
      "Flag=yes",
      'ARGS: error parsing value of pair "Flag=yes": boolean unmarshal error: invalid input yes',
    ],
    ["Flag=", 'ARGS: error parsing value of pair "Flag=": boolean unmarshal error: invalid input '],
    ["a", 'ARGS: invalid pair "a"'],
    ["a=b=c", 'ARGS: invalid pair "a=b=c"'],
    ["Name=x;", 'ARGS: invalid pair ""'],
    ["Unk=1;Other=2", 'ARGS: unknown args ["Unk=1" "Other=2"]'],
    ["name=x", 'ARGS: unknown args ["name=x"]'],
    [
      "IgnoreUnknown=maybe;X=1",
      'ARGS: error parsing value of pair "IgnoreUnknown=maybe": boolean unmarshal error: invalid input maybe',
    ],
    ["=", 'ARGS: unknown args ["="]'],
    ["=x", 'ARGS: unknown args ["=x"]'],
    ['Unk="q"\n', 'ARGS: unknown args ["Unk=\\"q\\"\\n"]'],
  ])("%j", (input, message) => {
    let caught: unknown;
    try {
      loadArgs(input, spec);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ArgsError);
    expect((caught as Error).message).toBe(message);
  });

  it("keeps the cause of a value that failed to parse", () => {
    let caught: unknown;
    try {
      loadArgs("IP=x", spec);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ArgsError);
    expect((caught as Error).message).toBe(
      'ARGS: error parsing value of pair "IP=x": invalid IP address: x',
    );
    const cause = (caught as Error).cause;
    expect(cause).toBeInstanceOf(Error);
    expect((cause as Error).message).toBe("invalid IP address: x");
  });
});

describe("loadArgs: values as Go loads them", () => {
  it.each([
    ["IgnoreUnknown=True;Unk=nown", { IgnoreUnknown: true }],
    ["IP=", { IP: newIP(0) }],
    ["Name=", { Name: "" }],
    ["Name=a b", { Name: "a b" }],
    ["Flag=TRUE", { Flag: true }],
    ["PStr=x", { PStr: "x" }],
    ["Unk=1;IgnoreUnknown=true;Other=2", { IgnoreUnknown: true }],
    ["Unk=1;IgnoreUnknown=false;IgnoreUnknown=1", { IgnoreUnknown: true }],
    ["Name=1;Name=2", { Name: "2" }],
  ])("%j", (input, expected) => {
    expect(loadArgs(input, spec)).toEqual(expected);
  });

  it("types the record from the spec", () => {
    const args = loadArgs("Flag=FaLsE;IP=::1", spec);
    const flag: boolean | undefined = args.Flag;
    expect(flag).toBe(false);
    expect(ipToString(args.IP ?? new Uint8Array(0))).toBe("::1");
  });

  it("does not treat inherited object keys as arguments", () => {
    expect(() => loadArgs("toString=x", {})).toThrow('ARGS: unknown args ["toString=x"]');
    expect(() => loadArgs("__proto__=x", {})).toThrow('ARGS: unknown args ["__proto__=x"]');
  });
});
