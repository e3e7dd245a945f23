/**
 * A pod's netns checked before its setup runs anything: it exists and is a network namespace,
 * as upstream plugins' `ns.GetNS` would find when they run (nsfs for a pinned namespace, the
 * `/proc/<pid>/ns/net` link of a process). Upstream libcni checks nothing: the chain's first
 * plugin that enters the namespace fails, after the plugins before it ran.
 */
import { stat } from "node:fs/promises";
import { InvalidArgumentError } from "../errors/base.js";
import { PodNetnsError } from "../errors/runtime.js";
import { errnoCode } from "../internal/errno.js";
import { isNetns } from "../netns/check.js";

/**
 * Throws PodNetnsError unless `netns` is a live network namespace.
 * @throws InvalidArgumentError when `netns` is not a string (a JavaScript caller's mistake).
 */
export async function checkPodNetns(podID: string, netns: unknown): Promise<void> {
  if (typeof netns !== "string") {
    throw new InvalidArgumentError("pod.netns", `pod.netns must be a string, got ${typeof netns}`);
  }
  if (netns === "") throw new PodNetnsError(podID, netns, "missing");
  try {
    await stat(netns);
  } catch (error) {
    const code = errnoCode(error);
    const reason = code === "ENOENT" || code === "ENOTDIR" ? "missing" : "unreadable";
    throw new PodNetnsError(podID, netns, reason, { cause: error });
  }
  if (!(await isNetns(netns))) throw new PodNetnsError(podID, netns, "not-a-netns");
}
