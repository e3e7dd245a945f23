package main

// Debian's Go libcni 1.1.2 has no GetCachedAttachments, so there is no Go function to run.
// listCachedAttachments is the driver's own check, written from the documented rules
// (/work/shared/reference/libcni-behaviour.md, section E: "Result cache"), not from
// upstream's code: it reads the cache directory the 1.1.2 run wrote and lists the records
// those rules keep, so the port's getCachedAttachments is compared with the rules as
// documented rather than with itself.
//
// The rules: look in <cacheDir>/results (missing: nothing); walk file names in sorted
// order; with a container ID, a name must have "-<cid>-" with something before it and
// after it (a record path is <network>-<cid>-<ifName>); then skip a file that cannot be
// read or decoded, whose kind is not cniCacheV1, whose containerId is not the one asked
// for, or whose ifName or networkName is empty.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// attachmentOut is one listed attachment in the harness's observation format.
type attachmentOut struct {
	ContainerID    string                 `json:"containerID"`
	Network        string                 `json:"network"`
	IfName         string                 `json:"ifName"`
	ConfigB64      *string                `json:"configB64"`
	NetNS          string                 `json:"netNS"`
	CniArgs        [][2]string            `json:"cniArgs"`
	CapabilityArgs map[string]interface{} `json:"capabilityArgs"`
}

// cacheRecord holds the record fields section E lists; a field of the wrong JSON type
// fails the decode, and the file is then skipped like any undecodable one.
type cacheRecord struct {
	Kind    string                 `json:"kind"`
	CID     string                 `json:"containerId"`
	Conf    []byte                 `json:"config"`
	Iface   string                 `json:"ifName"`
	Net     string                 `json:"networkName"`
	NS      string                 `json:"netns"`
	Args    [][2]string            `json:"cniArgs"`
	CapArgs map[string]interface{} `json:"capabilityArgs"`
}

func nameMatches(name, cid string) bool {
	if cid == "" {
		return true
	}
	at := strings.Index(name, "-"+cid+"-")
	return at > 0 && at+len(cid)+2 < len(name)
}

func listCachedAttachments(cacheDir, cid string) ([]attachmentOut, error) {
	dir := filepath.Join(cacheDir, "results")
	list, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return []attachmentOut{}, nil
	}
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, ent := range list {
		if nameMatches(ent.Name(), cid) {
			names = append(names, ent.Name())
		}
	}
	sort.Strings(names)

	found := []attachmentOut{}
	for _, n := range names {
		raw, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		var rec cacheRecord
		if json.Unmarshal(raw, &rec) != nil || rec.Kind != "cniCacheV1" {
			continue
		}
		if (cid != "" && rec.CID != cid) || rec.Iface == "" || rec.Net == "" {
			continue
		}
		var conf *string
		if rec.Conf != nil {
			conf = b64(rec.Conf)
		}
		found = append(found, attachmentOut{
			ContainerID: rec.CID, Network: rec.Net, IfName: rec.Iface, ConfigB64: conf,
			NetNS: rec.NS, CniArgs: rec.Args, CapabilityArgs: rec.CapArgs,
		})
	}
	return found, nil
}
