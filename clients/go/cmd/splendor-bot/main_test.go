package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"splendor-engine/clients/go/internal/enginetest"
)

// address is the engine the tests share (TestMain starts it).
var address string

func TestMain(m *testing.M) {
	started, stop, err := enginetest.Serve()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	address = started
	code := m.Run()
	stop()
	os.Exit(code)
}

func TestTheBotPlaysASealedGameOfEveryModuleAndReadsARefusal(t *testing.T) {
	var out, errs bytes.Buffer
	args := []string{"--address", address, "--module", "all", "--players", "3", "--bots", "greedy,random,server:greedy"}
	if status := run(args, &out, &errs); status != 0 {
		t.Fatalf("exit %d: %s%s", status, out.String(), errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 6 || lines[0] != "a move without its seat key is refused: PermissionDenied SEAT_KEY_MISSING" {
		t.Fatalf("printed:\n%s", out.String())
	}
	for i, ruleset := range []string{"base", "cities", "orient", "strongholds", "trading_posts"} {
		if !strings.HasPrefix(lines[i+1], ruleset+", 3 players, sealed: seat ") {
			t.Fatalf("line %d: %q", i+1, lines[i+1])
		}
	}
	t.Log("\n" + out.String())
}

func TestTheBotPlaysPlainGamesWhenAsked(t *testing.T) {
	var out, errs bytes.Buffer
	if status := run([]string{"--address", address, "--plain", "--module", "orient", "--games", "2"}, &out, &errs); status != 0 {
		t.Fatalf("exit %d: %s", status, errs.String())
	}
	if strings.Count(out.String(), "orient, 2 players, plain: ") != 2 {
		t.Fatalf("printed:\n%s", out.String())
	}
}

func TestBadArgumentsAreRefused(t *testing.T) {
	var out, errs bytes.Buffer
	if status := run([]string{"--players"}, &out, &errs); status != 2 {
		t.Fatalf("exit %d", status)
	}
	if status := run([]string{"--address", "127.0.0.1:1", "--module", "atlantis"}, &out, &errs); status != 1 || !strings.Contains(errs.String(), `unknown module "atlantis"`) {
		t.Fatalf("exit %d: %s", status, errs.String())
	}
}
