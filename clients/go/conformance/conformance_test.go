package conformance

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	"splendor-engine/clients/go/internal/enginetest"
)

func vectors(t *testing.T) *Corpus {
	t.Helper()
	corpus, err := Load(filepath.Join(enginetest.RepoDir(), "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	return corpus
}

func connect(t *testing.T, address string) *grpc.ClientConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := grpc.DialContext(ctx, address, grpc.WithInsecure(), grpc.WithBlock())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func TestEveryVectorPassesAgainstTheEngine(t *testing.T) {
	corpus := vectors(t)
	report := Run(context.Background(), connect(t, enginetest.Start(t)), corpus, Options{}, func(failure Failure) { t.Error(failure) })
	if !report.Passed() || report.Calls != corpus.Calls() || report.Games != len(corpus.Games) || report.Calls < 1000 {
		t.Fatal(report.Summary())
	}
	t.Log(report.Summary())
}

// Each planted fault of conformance/planted_fault.py, the cases it must break, and what the report says.
var plantedFaults = []struct{ fault, only, why string }{
	{"events", "^base-2p-greedy/apply/", "events"},
	{"reason", "^base/refusal/action/", "refused with FAILED_PRECONDITION GAME_OVER"},
	{"digest", "^base-2p-greedy", "the digest after action"},
	{"view", "^base-2p-greedy/view/", "view.bank.white"},
}

func TestTheRunnerFailsAgainstAPlantedFault(t *testing.T) {
	corpus := vectors(t)
	for _, planted := range plantedFaults {
		conn := connect(t, enginetest.StartPlantedFault(t, planted.fault))
		report := Run(context.Background(), conn, corpus, Options{Only: regexp.MustCompile(planted.only)}, nil)
		if report.Passed() || len(report.Failures) == 0 {
			t.Fatalf("%s: the runner passed against the fault: %s", planted.fault, report.Summary())
		}
		found := false
		for _, failure := range report.Failures {
			found = found || strings.Contains(failure.Why, planted.why)
		}
		if !found {
			t.Fatalf("%s: no failure says %q: %v", planted.fault, planted.why, report.Failures[0])
		}
	}
}

func number(text string) json.Number { return json.Number(text) }

func TestReferencesTamperingAndNormalisation(t *testing.T) {
	answer := map[string]interface{}{"sealedState": "AQID", "seatKeys": []interface{}{"k0", "k1"}}
	request := map[string]interface{}{
		"sealedState": map[string]interface{}{"$from": []interface{}{number("0"), "sealedState"}, "$tamper": "flip-last-byte"},
		"seatKey":     map[string]interface{}{"$from": []interface{}{number("0"), "seatKeys", number("1")}},
	}
	resolved, err := resolve(request, []interface{}{answer})
	if err != nil {
		t.Fatal(err)
	}
	if got := short(resolved); got != `{"sealedState":"AQIC","seatKey":"k1"}` {
		t.Fatalf("resolved %s", got)
	}
	if _, err := resolve(map[string]interface{}{"$from": []interface{}{number("0"), "x"}}, []interface{}{nil}); err == nil {
		t.Fatal("a reference to a refused step resolved")
	}
	paths := [][]string{{"sealedState"}, {"seatKeys", "*"}}
	if got := short(normalised(answer, paths)); got != `{"sealedState":"","seatKeys":["",""]}` {
		t.Fatalf("normalised %s", got)
	}
	if got := missing(normalised(answer, paths), map[string]interface{}{"seatKeys": []interface{}{"x"}}, paths); len(got) != 1 || got[0] != "sealedState" {
		t.Fatalf("missing %v", got)
	}
	if got := codeName("FailedPrecondition"); got != "FAILED_PRECONDITION" {
		t.Fatal(got)
	}
}
