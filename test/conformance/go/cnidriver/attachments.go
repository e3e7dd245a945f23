package main

// getCachedAttachments is upstream v1.3.0's CNIConfig.GetCachedAttachments (libcni/api.go,
// Apache-2.0, the CNI authors), which Debian's 1.1.2 lacks: the same listing, filtering and
// decoding rules, run over the cache directory the 1.1.2 run wrote, so the port's
// getCachedAttachments has an upstream reference to be compared with.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type v130CachedInfo struct {
	Kind           string                 `json:"kind"`
	ContainerID    string                 `json:"containerId"`
	Config         []byte                 `json:"config"`
	IfName         string                 `json:"ifName"`
	NetworkName    string                 `json:"networkName"`
	NetNS          string                 `json:"netns,omitempty"`
	CniArgs        [][2]string            `json:"cniArgs,omitempty"`
	CapabilityArgs map[string]interface{} `json:"capabilityArgs,omitempty"`
	RawResult      map[string]interface{} `json:"result,omitempty"`
}

type attachmentOut struct {
	ContainerID    string                 `json:"containerID"`
	Network        string                 `json:"network"`
	IfName         string                 `json:"ifName"`
	ConfigB64      *string                `json:"configB64"`
	NetNS          string                 `json:"netNS"`
	CniArgs        [][2]string            `json:"cniArgs"`
	CapabilityArgs map[string]interface{} `json:"capabilityArgs"`
}

func getCachedAttachments(cacheDir, containerID string) ([]attachmentOut, error) {
	dirPath := filepath.Join(cacheDir, "results")
	entries, err := os.ReadDir(dirPath)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}

	fileNames := make([]string, 0, len(entries))
	for _, e := range entries {
		fileNames = append(fileNames, e.Name())
	}
	sort.Strings(fileNames)

	attachments := []attachmentOut{}
	for _, fname := range fileNames {
		if len(containerID) > 0 {
			part := fmt.Sprintf("-%s-", containerID)
			pos := strings.Index(fname, part)
			if pos <= 0 || pos+len(part) >= len(fname) {
				continue
			}
		}
		bytes, err := os.ReadFile(filepath.Join(dirPath, fname))
		if err != nil {
			continue
		}
		info := v130CachedInfo{}
		if err := json.Unmarshal(bytes, &info); err != nil {
			continue
		}
		if info.Kind != "cniCacheV1" {
			continue
		}
		if len(containerID) > 0 && info.ContainerID != containerID {
			continue
		}
		if info.IfName == "" || info.NetworkName == "" {
			continue
		}
		a := attachmentOut{
			ContainerID:    info.ContainerID,
			Network:        info.NetworkName,
			IfName:         info.IfName,
			NetNS:          info.NetNS,
			CniArgs:        info.CniArgs,
			CapabilityArgs: info.CapabilityArgs,
		}
		if info.Config != nil {
			a.ConfigB64 = b64(info.Config)
		}
		attachments = append(attachments, a)
	}
	return attachments, nil
}
