/**
 * Signalling a plugin's whole process group.
 *
 * Plugins are started as the leader of a new process group (a new session, in fact), so
 * whatever they fork (an IPAM helper, a shell's children) can be stopped with them: upstream
 * kills only the direct child (its issue #687), leaving a grandchild that holds the output
 * pipe to outlive the deadline.
 */

function isErrno(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && "code" in error;
}

/** Sends `signal` to every process of the group `pgid`; a group already gone is not an error. */
export function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    // Windows has no process groups; the direct child is the best that can be done there.
    process.kill(process.platform === "win32" ? pgid : -pgid, signal);
  } catch (error) {
    if (!isErrno(error) || (error.code !== "ESRCH" && error.code !== "EPERM")) throw error;
  }
}

/**
 * True while any process of the group exists. A zombie still counts until its parent (init,
 * once the plugin is gone) reaps it.
 */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(process.platform === "win32" ? pgid : -pgid, 0);
    return true;
  } catch (error) {
    return isErrno(error) && error.code === "EPERM";
  }
}
