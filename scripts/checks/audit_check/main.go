// audit_check: an independent verifier of a passkeyd audit-log export, sharing no code with passkeyd. It uses Go's
// golang.org/x/mod/sumdb/note (C2SP signed notes, Ed25519) and sumdb/tlog (RFC 6962 hashing and proofs), from
// Debian's golang-golang-x-mod-dev, built offline by scripts/checks/audit_log.sh.
//
// Usage: audit_check DIR [ADMIN_URL]
//
// DIR holds `entries` (one leaf per line), `checkpoint` (the signed note) and `key` (the verifier key). With
// ADMIN_URL, the server's inclusion and consistency proofs (GET /audit/proof/...) are checked too.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "audit_check: FAIL "+format+"\n", args...)
	os.Exit(1)
}

func read(dir, name string) []byte {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		fail("%v", err)
	}
	return data
}

type proof struct {
	Hashes []string `json:"hashes"`
}

func fetchProof(url string) []tlog.Hash {
	resp, err := http.Get(url)
	if err != nil {
		fail("%v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		fail("GET %s: %s", url, resp.Status)
	}
	var p proof
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		fail("GET %s: %v", url, err)
	}
	hashes := make([]tlog.Hash, len(p.Hashes))
	for i, text := range p.Hashes {
		raw, err := base64.StdEncoding.DecodeString(text)
		if err != nil || len(raw) != tlog.HashSize {
			fail("GET %s: hash %d is not base64 SHA-256", url, i)
		}
		copy(hashes[i][:], raw)
	}
	return hashes
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: audit_check DIR [ADMIN_URL]")
		os.Exit(2)
	}
	dir := os.Args[1]
	verifier, err := note.NewVerifier(strings.TrimSpace(string(read(dir, "key"))))
	if err != nil {
		fail("verifier key: %v", err)
	}
	signed, err := note.Open(read(dir, "checkpoint"), note.VerifierList(verifier))
	if err != nil {
		fail("checkpoint signature: %v", err)
	}
	// tlog-checkpoint: origin, decimal size, base64 root hash (tlog.ParseTree expects go.sum's header instead).
	lines := strings.Split(signed.Text, "\n")
	if len(lines) < 4 {
		fail("checkpoint body has fewer than three lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 1 {
		fail("checkpoint size %q", lines[1])
	}
	rootBytes, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(rootBytes) != tlog.HashSize {
		fail("checkpoint root %q", lines[2])
	}
	var root tlog.Hash
	copy(root[:], rootBytes)

	entries := bytes.Split(read(dir, "entries"), []byte("\n"))
	if len(entries) > 0 && len(entries[len(entries)-1]) == 0 {
		entries = entries[:len(entries)-1]
	}
	if int64(len(entries)) < size {
		fail("the checkpoint commits to %d entries, the export holds %d", size, len(entries))
	}
	var stored []tlog.Hash
	reader := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(indexes))
		for i, index := range indexes {
			out[i] = stored[index]
		}
		return out, nil
	})
	for i, entry := range entries[:size] {
		var fields struct {
			Seq *int64 `json:"seq"`
		}
		if err := json.Unmarshal(entry, &fields); err != nil || fields.Seq == nil || *fields.Seq != int64(i) {
			fail("entry %d: not JSON with \"seq\": %d", i, i)
		}
		hashes, err := tlog.StoredHashes(int64(i), entry, reader)
		if err != nil {
			fail("%v", err)
		}
		stored = append(stored, hashes...)
	}
	computed, err := tlog.TreeHash(size, reader)
	if err != nil {
		fail("%v", err)
	}
	if computed != root {
		fail("the %d entries hash to %s, the checkpoint signs %s", size, computed, root)
	}
	checked := 0
	if len(os.Args) > 2 {
		base := strings.TrimSuffix(os.Args[2], "/")
		for _, index := range []int64{0, size / 2, size - 1} {
			p := fetchProof(fmt.Sprintf("%s/audit/proof/inclusion?index=%d&tree_size=%d", base, index, size))
			if err := tlog.CheckRecord(p, size, root, index, tlog.RecordHash(entries[index])); err != nil {
				fail("inclusion proof of entry %d: %v", index, err)
			}
			checked++
		}
		for _, first := range []int64{1, (size + 1) / 2, size} {
			old, err := tlog.TreeHash(first, reader)
			if err != nil {
				fail("%v", err)
			}
			p := fetchProof(fmt.Sprintf("%s/audit/proof/consistency?first=%d&second=%d", base, first, size))
			if err := tlog.CheckTree(p, size, root, first, old); err != nil {
				fail("consistency proof %d -> %d: %v", first, size, err)
			}
			checked++
		}
	}
	fmt.Printf("audit_check: OK %d entries match the checkpoint signed by %s; %d server proofs checked\n",
		size, verifier.Name(), checked)
}
