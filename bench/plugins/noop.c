/*
 * noop: the cheapest possible CNI plugin, so that benchmarks measure the runtime library and
 * the exec, not the plugin. It reads its whole stdin (as every plugin must, or a large config
 * would block the writer), then for ADD prints a fixed 1.0.0 result, for VERSION the versions
 * it supports, and for every other command (DEL, CHECK, GC, STATUS) nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char result[] =
    "{\"cniVersion\":\"1.0.0\","
    "\"interfaces\":[{\"name\":\"eth0\",\"mac\":\"0a:58:0a:01:02:03\",\"sandbox\":\"/var/run/netns/bench\"}],"
    "\"ips\":[{\"interface\":0,\"address\":\"10.1.2.3/24\",\"gateway\":\"10.1.2.1\"}],"
    "\"routes\":[{\"dst\":\"0.0.0.0/0\"}],"
    "\"dns\":{\"nameservers\":[\"10.1.0.10\"]}}\n";

static const char versions[] =
    "{\"cniVersion\":\"1.0.0\",\"supportedVersions\":[\"0.1.0\",\"0.2.0\",\"0.3.0\",\"0.3.1\",\"0.4.0\",\"1.0.0\",\"1.1.0\"]}\n";

static int write_all(const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(1, p, n);
    if (w < 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int main(void) {
  char buf[65536];
  while (read(0, buf, sizeof buf) > 0) {
  }
  const char *cmd = getenv("CNI_COMMAND");
  if (cmd == NULL) return 1;
  if (strcmp(cmd, "ADD") == 0) return write_all(result, sizeof result - 1) ? 1 : 0;
  if (strcmp(cmd, "VERSION") == 0) return write_all(versions, sizeof versions - 1) ? 1 : 0;
  return 0;
}
