package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"splendor-engine/clients/go/internal/enginetest"
)

func TestTheCommandPassesAgainstTheEngineAndFailsAgainstAFault(t *testing.T) {
	vectors := filepath.Join(enginetest.RepoDir(), "conformance")
	var out, errs bytes.Buffer
	args := []string{"--vectors", vectors, "--only", "^trading_posts/", "--address"}
	if status := run(append(args, enginetest.Start(t)), &out, &errs); status != 0 || !strings.Contains(out.String(), "all passed") {
		t.Fatalf("exit %d:\n%s%s", status, out.String(), errs.String())
	}
	out.Reset()
	if status := run(append(args, enginetest.StartPlantedFault(t, "reason")), &out, &errs); status != 1 || !strings.Contains(out.String(), "FAILED") {
		t.Fatalf("exit %d against a planted fault:\n%s", status, out.String())
	}
}

func TestAMissingVectorsDirectoryIsRefused(t *testing.T) {
	var out, errs bytes.Buffer
	if status := run([]string{"--vectors", t.TempDir()}, &out, &errs); status != 2 || !strings.Contains(errs.String(), "manifest.json") {
		t.Fatalf("exit %d: %s", status, errs.String())
	}
}
