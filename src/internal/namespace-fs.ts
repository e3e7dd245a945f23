/**
 * The file systems a namespace path lives on (linux/magic.h), as upstream plugins' `ns`
 * package checks them: nsfs for a pinned namespace, procfs for `/proc/<pid>/ns/net`.
 */
const NSFS_MAGIC = 0x6e736673;
export const PROC_SUPER_MAGIC = 0x9fa0;

export function isNamespaceFsType(type: number): boolean {
  return type === NSFS_MAGIC || type === PROC_SUPER_MAGIC;
}
