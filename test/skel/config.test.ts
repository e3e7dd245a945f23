// The config check skel runs before dispatching (upstream validateConfig), with Go's error
// texts: the config is decoded into an anonymous struct { Name string `json:"name"` }.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/skel/config.js";
import { ErrDecodingFailure, ErrInvalidNetworkConfig } from "../../src/types/error-codes.js";
import { validateNetworkName } from "../../src/utils/index.js";
import { bytes, wire } from "./harness.js";

const check = (text: string) => wire(validateConfig(bytes(text)));
const decoding = (text: string) => ({
  code: ErrDecodingFailure,
  msg: `error unmarshall network config: ${text}`,
  details: "",
});
const anonymous = 'struct { Name string "json:\\"name\\"" }';

describe("validateConfig", () => {
  it("accepts a config with a valid name", () => {
    expect(check(`{"name":"net1","cniVersion":"1.0.0"}`)).toBeUndefined();
  });

  it("matches the name key case-insensitively, as Go", () => {
    expect(check(`{"NAME":"net1"}`)).toBeUndefined();
    expect(check(`{"Name":""}`)).toEqual({
      code: ErrInvalidNetworkConfig,
      msg: "missing network name",
      details: "",
    });
  });

  it("rejects empty stdin with Go's syntax error text", () => {
    expect(check("")).toEqual(decoding("unexpected end of JSON input"));
  });

  it("rejects bad JSON with Go's texts", () => {
    expect(check("{")).toEqual(decoding("unexpected end of JSON input"));
    expect(check(`{"name":"x"} x`)).toEqual(
      decoding("invalid character 'x' after top-level value"),
    );
  });

  it("names the anonymous struct as Go does for a non-object", () => {
    expect(check("[]")).toEqual(
      decoding(`json: cannot unmarshal array into Go value of type ${anonymous}`),
    );
    expect(check(`"x"`)).toEqual(
      decoding(`json: cannot unmarshal string into Go value of type ${anonymous}`),
    );
  });

  it("reports a non-string name as Go's field error", () => {
    expect(check(`{"name":5}`)).toEqual(
      decoding("json: cannot unmarshal number into Go struct field .name of type string"),
    );
  });

  it("treats null as an empty struct: missing network name", () => {
    expect(check("null")).toEqual({
      code: ErrInvalidNetworkConfig,
      msg: "missing network name",
      details: "",
    });
    expect(check(`{"name":null}`)?.msg).toBe("missing network name");
  });

  it("applies the network name rules", () => {
    expect(check(`{"name":"te%%st"}`)).toEqual(wire(validateNetworkName("te%%st")));
    expect(check(`{"name":"te%%st"}`)?.code).toBe(ErrInvalidNetworkConfig);
  });

  it("agrees with validateNetworkName for any name (property)", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: "binary" }), (name) => {
        const got = check(JSON.stringify({ name }));
        expect(got).toEqual(wire(validateNetworkName(name)));
      }),
    );
  });
});
