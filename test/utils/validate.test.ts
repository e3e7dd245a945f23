import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CNIError, InvalidArgumentError } from "../../src/errors/index.js";
import {
  validateContainerID,
  validateInterfaceName,
  validateNetworkName,
} from "../../src/utils/index.js";
import { GO_SPACE_CODE_POINTS, isGoSpace } from "../../src/utils/unicode-space.js";

/** The wire fields of an error, or undefined, for exact comparison (Go's reflect.DeepEqual). */
function fields(
  err: CNIError | undefined,
): { code: number; msg: string; details: string } | undefined {
  return err === undefined ? undefined : { code: err.code, msg: err.msg, details: err.details };
}

const nameChar = fc.constantFrom(
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-".split(""),
);
const alnum = fc.constantFrom(
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split(""),
);
const validName = fc
  .tuple(alnum, fc.array(nameChar, { maxLength: 40 }))
  .map(([first, rest]) => first + rest.join(""));

describe("validateContainerID (upstream TestValidateContainerID)", () => {
  it("rejects an empty ID with code 3 and no details", () => {
    const err = validateContainerID("");
    expect(err).toBeInstanceOf(CNIError);
    expect(fields(err)).toEqual({ code: 3, msg: "missing containerID", details: "" });
    expect(err?.message).toBe("missing containerID");
  });

  it("rejects invalid characters with code 4 and the ID as details", () => {
    const err = validateContainerID("1234%%%");
    expect(fields(err)).toEqual({
      code: 4,
      msg: "invalid characters in containerID",
      details: "1234%%%",
    });
    expect(err?.message).toBe("invalid characters in containerID; 1234%%%");
  });

  it("accepts a normal ID", () => {
    expect(validateContainerID("a51debf7e1eb")).toBeUndefined();
  });

  it.each([
    ["leading dash", "-abc"],
    ["leading dot", ".abc"],
    ["leading underscore", "_abc"],
    ["slash", "a/b"],
    ["path traversal", "../etc"],
    ["space", "a b"],
    ["trailing newline", "abc\n"],
    ["non-ASCII letter", "é"],
    ["NUL", "a\u0000"],
  ])("rejects %s", (_label, id) => {
    expect(fields(validateContainerID(id))).toEqual({
      code: 4,
      msg: "invalid characters in containerID",
      details: id,
    });
  });

  it.each([["a"], ["0"], ["a-b_c.d"], ["Z..--__"]])("accepts %s", (id) => {
    expect(validateContainerID(id)).toBeUndefined();
  });

  it("accepts exactly the names matching the upstream pattern (property)", () => {
    fc.assert(fc.property(validName, (id) => validateContainerID(id) === undefined));
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: "binary" }), (id) => {
        const ok = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(id);
        const err = validateContainerID(id);
        return ok ? err === undefined : err?.code === 4 && err.details === id;
      }),
    );
  });
});

describe("validateNetworkName (upstream TestValidateNetworkName)", () => {
  it("rejects an empty name with code 7 and upstream's trailing colon", () => {
    const err = validateNetworkName("");
    expect(fields(err)).toEqual({ code: 7, msg: "missing network name:", details: "" });
    expect(err?.message).toBe("missing network name:");
  });

  it("rejects invalid characters with code 7 and the name as details", () => {
    const err = validateNetworkName("1234%%%");
    expect(fields(err)).toEqual({
      code: 7,
      msg: "invalid characters found in network name",
      details: "1234%%%",
    });
  });

  it("accepts a normal name", () => {
    expect(validateNetworkName("eth0")).toBeUndefined();
  });

  it.each([["../x"], ["a/b"], ["-x"], ["x\n"], ["x y"]])("rejects %j", (name) => {
    expect(fields(validateNetworkName(name))).toEqual({
      code: 7,
      msg: "invalid characters found in network name",
      details: name,
    });
  });

  it("agrees with the upstream pattern (property)", () => {
    fc.assert(fc.property(validName, (name) => validateNetworkName(name) === undefined));
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: "binary" }), (name) => {
        const ok = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(name);
        const err = validateNetworkName(name);
        return ok ? err === undefined : err?.code === 7 && err.details === name;
      }),
    );
  });
});

const INVALID_CHARS = {
  code: 4,
  msg: "interface name contains / or : or whitespace characters",
  details: "",
};
const TOO_LONG = {
  code: 4,
  msg: "interface name is too long",
  details: "interface name should be less than 16 characters",
};

describe("validateInterfaceName (upstream TestValidateInterfaceName)", () => {
  it("rejects an empty name", () => {
    expect(fields(validateInterfaceName(""))).toEqual({
      code: 4,
      msg: "interface name is empty",
      details: "",
    });
  });

  it("rejects more than 15 bytes", () => {
    const err = validateInterfaceName("testnamemorethan16");
    expect(fields(err)).toEqual(TOO_LONG);
    expect(err?.message).toBe(
      "interface name is too long; interface name should be less than 16 characters",
    );
  });

  it("accepts exactly 15 bytes and rejects 16", () => {
    expect(validateInterfaceName("a".repeat(15))).toBeUndefined();
    expect(fields(validateInterfaceName("a".repeat(16)))).toEqual(TOO_LONG);
  });

  it("counts UTF-8 bytes, not characters (as Go's len)", () => {
    // é is 2 bytes: 7 of them + 1 ASCII = 15 bytes, + 2 ASCII = 16 bytes (checked against Go).
    expect(validateInterfaceName("ééééééé")).toBeUndefined();
    expect(validateInterfaceName("éééééééx")).toBeUndefined();
    expect(fields(validateInterfaceName("éééééééxy"))).toEqual(TOO_LONG);
    // An emoji is 4 UTF-8 bytes (2 UTF-16 units): 4 of them = 16 bytes.
    expect(fields(validateInterfaceName("😀😀😀😀"))).toEqual(TOO_LONG);
    expect(validateInterfaceName("😀😀😀abc")).toBeUndefined();
  });

  it("checks the length before the characters, as upstream", () => {
    expect(fields(validateInterfaceName("a b c d e f g h i"))).toEqual(TOO_LONG);
  });

  it.each([["."], [".."]])("rejects %j", (name) => {
    expect(fields(validateInterfaceName(name))).toEqual({
      code: 4,
      msg: "interface name is . or ..",
      details: "",
    });
  });

  it("accepts other dot-only names", () => {
    expect(validateInterfaceName("...")).toBeUndefined();
  });

  it.each([
    ["slash", "/testname"],
    ["colon", "eth0:1"],
    ["space", "test name"],
    ["tab", "a\tb"],
    ["newline", "eth0\n"],
    ["NEL U+0085", "a\u0085"],
    ["NBSP U+00A0", "a\u00a0b"],
    ["ideographic space U+3000", "a\u3000b"],
    ["line separator U+2028", "a\u2028"],
  ])("rejects a %s", (_label, name) => {
    expect(fields(validateInterfaceName(name))).toEqual(INVALID_CHARS);
  });

  it.each([
    ["zero-width space U+200B", "a\u200bb"],
    ["BOM U+FEFF (JS \\s, not Go space)", "a\ufeffb"],
    ["non-ASCII letters", "eth€"],
    ["percent", "a%b"],
  ])("accepts a %s", (_label, name) => {
    expect(validateInterfaceName(name)).toBeUndefined();
  });

  it("accepts a normal name", () => {
    expect(validateInterfaceName("testname")).toBeUndefined();
  });

  it("rejects a name with any Go space anywhere (property)", () => {
    const name = fc
      .tuple(
        fc.string({ maxLength: 4, unit: "grapheme-ascii" }),
        fc.constantFrom(...GO_SPACE_CODE_POINTS),
        fc.string({ maxLength: 4, unit: "grapheme-ascii" }),
      )
      .map(([a, cp, b]) => a + String.fromCodePoint(cp) + b);
    fc.assert(
      fc.property(name, (n) => {
        const err = validateInterfaceName(n);
        return err !== undefined && err.code === 4;
      }),
    );
  });

  it("classifies every input as upstream's rules in order (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20, unit: "binary" }), (name) => {
        const err = validateInterfaceName(name);
        let expected: string | undefined;
        if (name === "") expected = "interface name is empty";
        else if (new TextEncoder().encode(name).length > 15)
          expected = "interface name is too long";
        else if (name === "." || name === "..") expected = "interface name is . or ..";
        else if (name.includes("\0")) expected = "interface name contains a NUL byte";
        else if ([...name].some((c) => c === "/" || c === ":" || isGoSpace(c.codePointAt(0)!)))
          expected = INVALID_CHARS.msg;
        return err?.msg === expected && (err === undefined || err.code === 4);
      }),
    );
  });
});

describe("isGoSpace (Go unicode.IsSpace)", () => {
  it("is exactly the 25 code points Go 1.19 reports", () => {
    // Produced by looping unicode.IsSpace over 0..MaxRune in Go.
    expect(GO_SPACE_CODE_POINTS).toEqual([
      0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
      0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
    ]);
    let count = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) if (isGoSpace(cp)) count++;
    expect(count).toBe(25);
  });

  it("agrees with Unicode White_Space for every code point", () => {
    const whiteSpace = /^\p{White_Space}$/u;
    const mismatches: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (isGoSpace(cp) !== whiteSpace.test(String.fromCodePoint(cp))) mismatches.push(cp);
    }
    expect(mismatches).toEqual([]);
  });

  it("differs from JavaScript's \\s where Go differs", () => {
    expect(isGoSpace(0xfeff)).toBe(false);
    expect(/\s/.test("\ufeff")).toBe(true);
    expect(isGoSpace(0x85)).toBe(true);
    expect(/\s/.test("\u0085")).toBe(false);
  });
});

describe("a name that is no string (a JavaScript caller's wrong type)", () => {
  const validators = [
    ["containerID", validateContainerID],
    ["networkName", validateNetworkName],
    ["ifName", validateInterfaceName],
  ] as const;
  it.each(
    validators,
  )("%s: thrown as InvalidArgumentError, never read as the name 'undefined'", (argument, validate) => {
    for (const value of [undefined, null, 42, ["eth0"]]) {
      const call = () => validate(value as unknown as string);
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(`${argument} must be a string, got `);
    }
  });
});
