# shellcheck shell=sh
# The conformance checker's test plugin, in POSIX sh (iproute2, util-linux's nsenter and awk, no
# jq): sourced by `reference` and by each `broken-<rule>`, which sets BREAK to the id of the one
# rule of src/testing/conformance/rules.ts it breaks (empty: no bug).
#
# ADD makes a veth pair, CNI_IFNAME in CNI_NETNS and vr<hash> on the host side (the namespace the
# plugin runs in), gives the pod's end an address derived from the attachment (10.250.x.y/24),
# records it in <dataDir>/<name>/<containerID>-<ifname> (address, netns, container ID, ifname,
# the pod's link name), and prints
# the result in the config's version (ips[].version before 1.0.0); chained (a prevResult in the
# config), it keeps the prevResult's interfaces, addresses, routes and DNS, its own address
# first. CHECK verifies that the interface and every address the prevResult gives it are there.
# DEL removes what the record names (both ends), succeeds when there is nothing, and when
# CNI_NETNS is gone.
# GC removes every attachment not in cni.dev/valid-attachments; STATUS succeeds.
# Config: {"cniVersion": ..., "name": ..., "type": ..., "dataDir": "/a/directory"}.
# HANG=<verb> (the hangs-on-* plugins) makes that verb sleep instead of answering.

: "${BREAK:=}" "${HANG:=}"
# The versions VERSION claims, and those a config may have (the same, but for version-honest).
ADVERTISED='"0.3.0","0.3.1","0.4.0","1.0.0","1.1.0"'
SUPPORTED=$ADVERTISED
if [ "$BREAK" = version-honest ]; then
  ADVERTISED="$ADVERTISED,\"1.3.0\""
  SUPPORTED='"0.3.1","0.4.0","1.0.0","1.1.0"'
fi

# A JSON reader (recursive descent), run once per call: it prints every value of stdin as a
# line `v<PATH><TAB><raw text>` (newlines in the text made spaces: JSON needs none), and every
# array and object also as `n<PATH><TAB><number of members>`. PATH is a chain of ["key"] and
# [index]; "" is the whole text. Exits 2 on text that is not one JSON value. The lookups below
# read its lines with the shell's own pattern matching: a call forks one awk, not one a field.
# It also prints the attachment's hash (`h<TAB>`, of CNI_CONTAINERID/CNI_IFNAME) and the host
# end's name from it (`H<TAB>vr` and 8 hex digits), which the shell cannot make without forks.
JSON_AWK='
BEGIN { for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i }
function ws() { while (p <= n && index(" \t\r\n", substr(s, p, 1)) > 0) p++ }
function str(   c) {
  p++
  for (;;) {
    c = substr(s, p, 1)
    if (c == "") return 0
    if (c == "\\") p += 2
    else if (c == "\"") { p++; return 1 }
    else p++
  }
}
function num() {
  if (!match(substr(s, p), /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) return 0
  p += RLENGTH
  return 1
}
function members(path, end,   c, k, start, m) {
  p++; ws(); m = 0
  if (substr(s, p, 1) == end) { p++; count[path] = 0; return 1 }
  for (;;) {
    ws()
    if (end == "}") {
      if (substr(s, p, 1) != "\"") return 0
      start = p
      if (!str()) return 0
      k = "[\"" substr(s, start + 1, p - start - 2) "\"]"
      ws()
      if (substr(s, p, 1) != ":") return 0
      p++; ws()
    } else k = "[" m "]"
    if (!value(path k)) return 0
    m++; ws(); c = substr(s, p, 1); p++
    if (c == end) { count[path] = m; return 1 }
    if (c != ",") return 0
  }
}
function value(path,   c, start, ok, raw) {
  start = p; c = substr(s, p, 1)
  if (c == "{") ok = members(path, "}")
  else if (c == "[") ok = members(path, "]")
  else if (c == "\"") ok = str()
  else if (c ~ /[-0-9]/) ok = num()
  else if (substr(s, p, 4) == "true" || substr(s, p, 4) == "null") { p += 4; ok = 1 }
  else if (substr(s, p, 5) == "false") { p += 5; ok = 1 }
  else ok = 0
  if (ok) {
    raw = substr(s, start, p - start)
    gsub(/[\r\n]/, " ", raw)
    lines = lines "v" path "\t" raw "\n"
    if (path in count) lines = lines "n" path "\t" count[path] "\n"
  }
  return ok
}
{ s = s $0 "\n" }
END {
  n = length(s); p = 1
  ws()
  if (!value("")) exit 2
  ws()
  if (p <= n) exit 2
  id = ENVIRON["CNI_CONTAINERID"] "/" ENVIRON["CNI_IFNAME"]
  h = 0
  for (i = 1; i <= length(id); i++) h = (h * 31 + ord[substr(id, i, 1)]) % 4294967296
  printf "%sh\t%.0f\nH\tvr%08x\n", lines, h, h
}'

NL='
'
TAB=$(printf '\t')
# Parses stdin once (read by awk itself: one fork); false when it is not one JSON value (FLAT
# is then empty).
parse() {
  FLAT=
  flat=$(awk "$JSON_AWK") || return 1
  FLAT="$NL$flat"
}
# `jget PATH` sets J to the raw text at PATH (empty when absent); `jlen PATH` to the number of
# members of the array or object at PATH (0 when absent); `jstr PATH` to the string at PATH,
# without its quotes (empty when absent or not a string).
lookup() {
  case $FLAT in
  *"$NL$1$2$TAB"*)
    J=${FLAT#*"$NL$1$2$TAB"}
    J=${J%%"$NL"*}
    ;;
  *) J=$3 ;;
  esac
}
jget() { lookup v "$1" ""; }
jlen() { lookup n "$1" 0; }
jstr() {
  jget "$1"
  case $J in \"*\") J=${J#\"} J=${J%\"} ;; *) J= ;; esac
}
# The lines of an attachment's record: R_ADDR, R_NETNS, R_ID, R_IFNAME, R_LINK, R_HOST (see
# record()).
read_record() {
  R_ADDR= R_NETNS= R_ID= R_IFNAME= R_LINK= R_HOST=
  {
    IFS= read -r R_ADDR
    IFS= read -r R_NETNS
    IFS= read -r R_ID
    IFS= read -r R_IFNAME
    IFS= read -r R_LINK
    IFS= read -r R_HOST
  } <"$1"
}

# Prints the spec's error object on stdout and exits 1.
fail() {
  code=$1
  msg=$(printf '%s' "$2" | tr '\n\t' '  ' | sed 's/\\/\\\\/g; s/"/\\"/g')
  printf '{"cniVersion":"%s","code":%s,"msg":"%s"}\n' "${VER:-1.1.0}" "$code" "$msg"
  exit 1
}

# CNI_* variables the command needs (code 4 without them).
need() {
  for var in "$@"; do
    eval "val=\${$var:-}"
    [ "$BREAK" = env-missing ] && [ "$var" = CNI_NETNS ] && continue
    [ -n "$val" ] || fail 4 "$var is not set"
  done
}

ns() { nsenter --net="$NETNS" "$@"; }

# The attachment's record: address, netns, containerID, ifname, link name, the host end's name
# (vr and 8 hex digits of a hash of containerID/ifname), one a line.
record() {
  jstr '["dataDir"]'
  DATADIR=$J
  [ -n "$DATADIR" ] || fail 7 "dataDir must be set to a directory"
  jstr '["name"]'
  STATE="$DATADIR/$J"
  REC="$STATE/$CNI_CONTAINERID-$CNI_IFNAME"
  # The pod's interface: CNI_IFNAME, or another name for add-ifname's bug.
  IFN=${CNI_IFNAME:-}
  [ "$BREAK" = add-ifname ] && IFN="n$IFN"
  # gc-concurrent's bug: ADD and DEL say they are running, for its GC to trip over.
  if [ "$BREAK" = gc-concurrent ] && { [ "$cmd" = ADD ] || [ "$cmd" = DEL ]; }; then
    mkdir -p "$STATE" && : >"$STATE/.busy.$$"
    trap 'rm -f "$STATE/.busy.$$"' EXIT
  fi
}

cmd_add() {
  need CNI_CONTAINERID CNI_NETNS CNI_IFNAME
  record
  NETNS=$CNI_NETNS
  lookup h "" 0
  h=$J
  addr="10.250.$((h / 250 % 256)).$((h % 250 + 2))/24"
  lookup H "" ""
  host=$J
  err=$(ip link add "$host" type veth peer name "$IFN" netns "$CNI_NETNS" 2>&1) ||
    fail 999 "cannot add $IFN in $CNI_NETNS: $err"
  if ! err=$(ip link set "$host" up 2>&1 && ns ip addr add "$addr" dev "$IFN" 2>&1 &&
    ns ip link set "$IFN" up 2>&1); then
    ip link del "$host" 2>/dev/null
    fail 999 "cannot set $IFN up with $addr: $err"
  fi
  link=$(ns ip -o link show dev "$IFN")
  mac=
  case $link in *"link/ether "*) mac=${link#*link/ether } mac=${mac%% *} ;; esac
  mkdir -p "$STATE" && printf '%s\n%s\n%s\n%s\n%s\n%s\n' "$addr" "$CNI_NETNS" "$CNI_CONTAINERID" \
    "$CNI_IFNAME" "$IFN" "$host" >"$REC" || fail 999 "cannot write $REC"
  if [ "$BREAK" = no-leftover-processes ]; then
    # A daemon in a session of its own, and a child of the plugin's group, stdio on /dev/null.
    setsid sleep 7201 </dev/null >/dev/null 2>&1 &
    sleep 7202 </dev/null >/dev/null 2>&1 &
  fi

  # Chained: the prevResult's interfaces first (their indices kept), then this one.
  jlen '["prevResult"]["interfaces"]'
  nif=$J
  jlen '["prevResult"]["ips"]'
  nip=$J
  jget '["prevResult"]["interfaces"]'
  ifaces=${J#\[} ifaces=${ifaces%\]}
  jget '["prevResult"]["ips"]'
  ips=${J#\[} ips=${ips%\]}
  [ "$BREAK" = add-prevresult ] && nip=0
  jget '["prevResult"]["routes"]'
  routes=$J
  jget '["prevResult"]["dns"]'
  dns=$J
  index=$nif
  [ "$BREAK" = add-result ] && routes='[{"dst":"default"}]'
  own_ip="{\"address\":\"$addr\",\"interface\":$index}"
  [ -n "$OLD" ] && own_ip="{\"version\":\"4\",\"address\":\"$addr\",\"interface\":$index}"
  [ "$nif" -gt 0 ] && ifaces="$ifaces,"
  [ "$nip" -gt 0 ] && own_ip="$own_ip,$ips"
  # result-sane's bug: a null entry in ips (Go decodes it, then crashes converting it), and
  # nameservers as a string.
  if [ "$BREAK" = result-sane ]; then
    own_ip="$own_ip,null"
    dns='{"nameservers":"192.0.2.53"}'
  fi
  printf '{"cniVersion":"%s","interfaces":[%s{"name":"%s","mac":"%s","sandbox":"%s"}],"ips":[%s]%s%s}\n' \
    "$VER" "$ifaces" "$IFN" "$mac" "$CNI_NETNS" "$own_ip" \
    "${routes:+,\"routes\":$routes}" "${dns:+,\"dns\":$dns}"
}

# A CHECK failure: the attachment is not what the prevResult says.
mismatch() {
  [ "$BREAK" = error-format ] && { printf '{"cniVersion":"%s","code":0,"msg":"%s"}\n' "$VER" "$1"; exit 1; }
  fail 100 "$1"
}

cmd_check() {
  need CNI_CONTAINERID CNI_NETNS CNI_IFNAME
  [ -n "$OLD03" ] && fail 1 "config version $VER does not allow CHECK"
  [ "$BREAK" = check-wrong-prevresult ] && exit 0
  [ "$BREAK" = check-after-add ] && [ "$VER" != 1.1.0 ] &&
    fail 1 "cannot read a prevResult of version $VER"
  record
  NETNS=$CNI_NETNS
  jget '["prevResult"]'
  [ -n "$J" ] || fail 7 "CHECK needs a prevResult"
  [ -f "$REC" ] || fail 3 "no attachment $CNI_CONTAINERID/$CNI_IFNAME"
  read_record "$REC"
  addr=$R_ADDR
  link=$(ns ip -o link show dev "$IFN" 2>&1) || mismatch "$IFN is gone: $link"
  have=$(ns ip -o addr show dev "$IFN")
  i=0 own=
  jlen '["prevResult"]["interfaces"]'
  n=$J
  while [ "$i" -lt "$n" ]; do
    at="[\"prevResult\"][\"interfaces\"][$i]"
    jstr "$at[\"name\"]"
    name=$J
    jstr "$at[\"sandbox\"]"
    if [ "$name" = "$IFN" ] && [ "$J" = "$CNI_NETNS" ]; then
      own=$i
      jstr "$at[\"mac\"]"
      mac=$J
      case $link in *"link/ether $mac "*) ;; *) mismatch "$IFN has not the MAC $mac" ;; esac
    fi
    i=$((i + 1))
  done
  [ -n "$own" ] || mismatch "the prevResult has no interface $IFN in $CNI_NETNS"
  i=0 mine=
  jlen '["prevResult"]["ips"]'
  n=$J
  while [ "$i" -lt "$n" ]; do
    at="[\"prevResult\"][\"ips\"][$i]"
    jget "$at[\"interface\"]"
    if [ "$J" = "$own" ]; then
      jstr "$at[\"address\"]"
      a=$J
      [ "$a" = "$addr" ] && mine=1
      case $have in *" $a "*) ;; *) mismatch "$IFN has not the address $a" ;; esac
    fi
    i=$((i + 1))
  done
  [ -n "$mine" ] || mismatch "the prevResult does not give $IFN its address $addr"
}

# Removes an attachment's veth pair (the pod's end when its namespace is still there, the host's
# end in any case: it outlives the namespace for a moment) and its record: remove NETNS IFNAME
# RECORD (the pod's link name is the record's, CNI_IFNAME in records that have none).
remove() {
  NETNS=$1
  read_record "$3"
  host=$R_HOST
  link=${R_LINK:-$2}
  # The DEL rules' bugs are DEL's, not GC's.
  bug=
  [ "$cmd" = DEL ] && bug=$BREAK
  if [ -n "$NETNS" ] && { [ -e "$NETNS" ] || [ "$bug" = del-netns-gone ]; }; then
    err=$(ns true 2>&1) || fail 999 "cannot enter $NETNS: $err"
    if ns ip link show dev "$link" >/dev/null 2>&1; then
      [ "$bug" = del-cleans-up ] || err=$(ns ip link del "$link" 2>&1) ||
        fail 999 "cannot remove $link: $err"
    elif [ "$bug" = del-idempotent ]; then
      fail 3 "$link is not in $NETNS"
    fi
  fi
  if [ "$bug" != del-cleans-up ] && ip link show dev "$host" >/dev/null 2>&1; then
    err=$(ip link del "$host" 2>&1) || ! ip link show dev "$host" >/dev/null 2>&1 ||
      fail 999 "cannot remove $host: $err"
  fi
  case $bug in
  del-idempotent) ;;
  del-without-add) mv "$3" "$3.deleted" ;;
  *) rm -f "$3" ;;
  esac
}

cmd_del() {
  need CNI_CONTAINERID CNI_IFNAME
  record
  if [ -f "$REC" ]; then
    read_record "$REC"
    remove "${CNI_NETNS:-$R_NETNS}" "$CNI_IFNAME" "$REC"
  elif [ "$BREAK" = del-without-add ] && [ ! -f "$REC.deleted" ]; then
    fail 3 "no attachment $CNI_CONTAINERID/$CNI_IFNAME"
  fi
}

cmd_gc() {
  [ "$VER" = 1.1.0 ] || fail 1 "config version $VER does not allow GC"
  record
  [ -d "$STATE" ] || return 0
  valid=
  i=0
  jlen '["cni.dev/valid-attachments"]'
  n=$J
  # gc-partial-list's bug: only the list's first entry is read.
  [ "$BREAK" = gc-partial-list ] && [ "$n" -gt 1 ] && n=1
  while [ "$i" -lt "$n" ]; do
    at="[\"cni.dev/valid-attachments\"][$i]"
    jstr "$at[\"containerID\"]"
    valid="$valid $J/"
    jstr "$at[\"ifname\"]"
    valid="$valid$J "
    i=$((i + 1))
  done
  # gc-concurrent's bug: a GC that meets a running ADD or DEL (within its first second) loses
  # every record, the listed ones too, as a store rewritten without a lock would.
  lose=
  if [ "$BREAK" = gc-concurrent ]; then
    i=0
    while [ "$i" -lt 10 ]; do
      for busy in "$STATE"/.busy.*; do [ -e "$busy" ] && lose=1; done
      [ -n "$lose" ] && break
      sleep 0.1
      i=$((i + 1))
    done
  fi
  for rec in "$STATE"/*; do
    case $rec in *.deleted) continue ;; esac
    [ -f "$rec" ] || continue
    read_record "$rec"
    id=$R_ID ifname=$R_IFNAME
    if [ -z "$lose" ]; then
      case $valid in *" $id/$ifname "*) continue ;; esac
    fi
    remove "$R_NETNS" "$ifname" "$rec"
  done
  # gc-valid-attachments' bug: GC does its job, then fails all the same.
  [ "$BREAK" = gc-valid-attachments ] && fail 999 "cannot collect: the store is busy"
  return 0
}

cmd_status() {
  [ "$VER" = 1.1.0 ] || fail 1 "config version $VER does not allow STATUS"
  [ "$BREAK" = status ] && fail 7 "status: no network configured"
  command -v nsenter >/dev/null && command -v ip >/dev/null ||
    fail 50 "nsenter or ip is missing"
}

main() {
  parse
  parsed=$?
  VER=
  cmd=${CNI_COMMAND:-}
  case $cmd in
  ADD | CHECK | DEL | GC | STATUS | VERSION) ;;
  *)
    [ "$BREAK" = command-unknown ] && exit 0
    fail 4 "unknown CNI_COMMAND \"$cmd\""
    ;;
  esac
  # input-malformed's bug: text that is no JSON object goes on, read as having no fields.
  [ "$parsed" = 0 ] && jget '' && case $J in "{"*) ;; *) false ;; esac ||
    [ "$BREAK" = input-malformed ] ||
    fail 6 "failed to decode the configuration: not a JSON object"
  jstr '["cniVersion"]'
  conf=$J
  case ",$SUPPORTED," in *",\"$conf\","*) VER=$conf ;; esac
  [ "$cmd" = "$HANG" ] && exec sleep 600
  if [ "$cmd" = VERSION ]; then
    [ "$BREAK" = version-output ] && { printf '{"supportedVersions":[%s]}\n' "$ADVERTISED"; exit 0; }
    printf '{"cniVersion":"%s","supportedVersions":[%s]}\n' "${VER:-1.1.0}" "$ADVERTISED"
    exit 0
  fi
  if [ -z "$VER" ]; then
    [ "$BREAK" = version-unsupported ] || fail 1 "incompatible CNI version \"$conf\""
    VER=$conf
  fi
  OLD= OLD03=
  case $VER in 0.3.*) OLD=1 OLD03=1 ;; 0.*) OLD=1 ;; esac
  case $cmd in
  ADD) cmd_add ;;
  CHECK) cmd_check ;;
  DEL) cmd_del ;;
  GC) cmd_gc ;;
  STATUS) cmd_status ;;
  esac
}

main
