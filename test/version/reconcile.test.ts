import { describe, expect, it } from "vitest";
import { ErrorIncompatible } from "../../src/errors/index.js";
import { pluginSupports } from "../../src/version/plugin-info.js";
import { Reconciler, reconcile } from "../../src/version/reconcile.js";

describe("reconcile (upstream 'Reconcile versions of net config with versions supported by plugins')", () => {
  const pluginInfo = pluginSupports("1.2.3", "4.3.2");

  it("succeeds if the config version is supported by the plugin", () => {
    expect(new Reconciler().check("4.3.2", pluginInfo)).toBeUndefined();
    expect(reconcile("4.3.2", pluginInfo)).toBeUndefined();
  });

  it("returns a helpful error when the config version is not supported", () => {
    const err = new Reconciler().check("0.1.0", pluginInfo);
    expect(err).toBeInstanceOf(ErrorIncompatible);
    expect(err?.config).toBe("0.1.0");
    expect(err?.supported).toEqual(["1.2.3", "4.3.2"]);
    expect(err?.message).toBe(
      'incompatible CNI versions: config is "0.1.0", plugin supports ["1.2.3" "4.3.2"]',
    );
    expect(err?.details()).toBe('config is "0.1.0", plugin supports ["1.2.3" "4.3.2"]');
    expect(err).toBeInstanceOf(Error);
  });

  it("checks a raw list as CheckRaw does", () => {
    expect(new Reconciler().checkRaw("1.0.0", ["0.4.0", "1.0.0"])).toBeUndefined();
    expect(reconcile("1.0.0", ["0.4.0", "1.0.0"])).toBeUndefined();
    expect(reconcile("x", [])?.message).toBe(
      'incompatible CNI versions: config is "x", plugin supports []',
    );
  });

  it("matches strings exactly, not numerically (as upstream)", () => {
    expect(reconcile("1.0", ["1.0.0"])).toBeInstanceOf(ErrorIncompatible);
    expect(reconcile("", ["0.1.0"])).toBeInstanceOf(ErrorIncompatible);
  });

  it("quotes versions as Go's %q", () => {
    expect(reconcile("x", ["1.2.3", "4.3.2", 'a"b'])?.message).toBe(
      'incompatible CNI versions: config is "x", plugin supports ["1.2.3" "4.3.2" "a\\"b"]',
    );
  });

  it("recognises an ErrorIncompatible from another copy of the library", () => {
    const foreign = Object.assign(new Error("x"), {
      [Symbol.for("libcni.error.ids")]: ["LIBCNI_ERR_VERSION_INCOMPATIBLE", "LIBCNI_ERR"],
    });
    expect(foreign).toBeInstanceOf(ErrorIncompatible);
    expect(new Error("x")).not.toBeInstanceOf(ErrorIncompatible);
    class Sub extends ErrorIncompatible {}
    expect(new Sub("a", [])).toBeInstanceOf(Sub);
    expect(new ErrorIncompatible("a", [])).not.toBeInstanceOf(Sub);
  });
});
