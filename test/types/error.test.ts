import { describe, expect, it, vi } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import type * as errors from "../../src/errors/index.js";
import { CNIError, isCNIError } from "../../src/errors/index.js";
import * as codes from "../../src/types/error-codes.js";

describe("CNIError", () => {
  it("has upstream's Error() text: msg, then '; ' + details when there are details", () => {
    expect(new CNIError(7, "missing network name", "").message).toBe("missing network name");
    expect(
      new CNIError(
        4,
        "interface name is too long",
        "interface name should be less than 16 characters",
      ).message,
    ).toBe("interface name is too long; interface name should be less than 16 characters");
  });

  it("encodes as upstream's struct: code, msg, details omitted when empty", () => {
    expect(marshal(new CNIError(11, "busy"))).toBe('{"code":11,"msg":"busy"}');
    expect(marshal(new CNIError(999, "a<b", "d"))).toBe(
      '{"code":999,"msg":"a\\u003cb","details":"d"}',
    );
    // JSON.stringify writes every library error's JSON (issue 42), the wire's fields among it.
    expect(JSON.parse(JSON.stringify(new CNIError(1, "m", "d")))).toMatchObject({
      code: 1,
      msg: "m",
      details: "d",
    });
  });

  it("prints as upstream's Print: 4-space indented", () => {
    expect(new CNIError(7, "bad", "why").print()).toBe(
      '{\n    "code": 7,\n    "msg": "bad",\n    "details": "why"\n}',
    );
  });

  it("exports a named constant for every spec code", () => {
    expect({
      unknown: codes.ErrUnknown,
      incompatible: codes.ErrIncompatibleCNIVersion,
      unsupportedField: codes.ErrUnsupportedField,
      unknownContainer: codes.ErrUnknownContainer,
      env: codes.ErrInvalidEnvironmentVariables,
      io: codes.ErrIOFailure,
      decoding: codes.ErrDecodingFailure,
      config: codes.ErrInvalidNetworkConfig,
      netns: codes.ErrInvalidNetNS,
      tryAgain: codes.ErrTryAgainLater,
      notAvailable: codes.ErrPluginNotAvailable,
      limited: codes.ErrLimitedConnectivity,
      internal: codes.ErrInternal,
    }).toEqual({
      unknown: 0,
      incompatible: 1,
      unsupportedField: 2,
      unknownContainer: 3,
      env: 4,
      io: 5,
      decoding: 6,
      config: 7,
      netns: 8,
      tryAgain: 11,
      notAvailable: 50,
      limited: 51,
      internal: 999,
    });
  });

  it("keeps the cause", () => {
    const cause = new Error("root");
    expect(new CNIError(5, "io", "", { cause }).cause).toBe(cause);
  });

  it("answers instanceof across two copies of the library in one process", async () => {
    vi.resetModules();
    // A query string makes the module loader evaluate the file a second time: a second copy.
    const secondCopy = "../../src/errors/index.js?second-copy";
    const other = (await import(/* @vite-ignore */ secondCopy)) as typeof errors;
    expect(other.CNIError).not.toBe(CNIError);
    const foreign = new other.CNIError(3, "x");
    expect(foreign).toBeInstanceOf(CNIError);
    expect(isCNIError(foreign)).toBe(true);
    expect(new CNIError(3, "x")).toBeInstanceOf(other.CNIError);
    expect(new Error("plain")).not.toBeInstanceOf(CNIError);
    expect({ code: 1, msg: "m" }).not.toBeInstanceOf(CNIError);
  });

  it("keeps the ordinary prototype check for subclasses", () => {
    class PluginFailure extends CNIError {}
    expect(new PluginFailure(1, "m")).toBeInstanceOf(CNIError);
    expect(new CNIError(1, "m")).not.toBeInstanceOf(PluginFailure);
  });
});
