package splendor

import (
	"context"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"splendor-engine/clients/go/internal/enginetest"
	pb "splendor-engine/clients/go/splendorv1"
)

// maxMoves bounds a test game: bots end every game within a few hundred moves.
const maxMoves = 2000

// engineAddress is the engine the package's tests share (TestMain starts it).
var engineAddress string

func TestMain(m *testing.M) {
	address, stop, err := enginetest.Serve()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	engineAddress = address
	code := m.Run()
	stop()
	os.Exit(code)
}

func dial(t *testing.T) (*Client, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	client, err := Dial(ctx, engineAddress)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client, ctx
}

// rulesets are the base game and every module of the contract, in a fixed order.
func rulesets() []struct {
	name    string
	modules []pb.Module
} {
	names := []string{}
	for name := range Modules() {
		names = append(names, name)
	}
	sort.Strings(names)
	found := []struct {
		name    string
		modules []pb.Module
	}{{"base", nil}}
	for _, name := range names {
		found = append(found, struct {
			name    string
			modules []pb.Module
		}{name, []pb.Module{Modules()[name]}})
	}
	return found
}

func TestASealedGameOfEveryModuleIsPlayedToItsEndWithSeatKeys(t *testing.T) {
	client, ctx := dial(t)
	catalog, err := client.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(Modules()) == 0 {
		t.Fatal("the contract's Module enum names no module: the test would play the base game only")
	}
	for index, ruleset := range rulesets() {
		players := uint32(2 + index%3)
		names := []string{"greedy", "random", "server:greedy"}
		seats := make([]Player, players)
		for seat := range seats {
			seats[seat], err = NewPlayer(names[(index+seat)%len(names)], catalog, int64(index*10+seat))
			if err != nil {
				t.Fatal(err)
			}
		}
		result, err := client.PlaySealed(ctx, Config(players, ruleset.modules...), seats, maxMoves)
		if err != nil {
			t.Fatalf("%s: %v", ruleset.name, err)
		}
		if result.View.GetEndReason() == pb.EndReason_END_REASON_UNSPECIFIED || len(result.Winners()) == 0 {
			t.Fatalf("%s: the game did not end: %v", ruleset.name, result.View)
		}
		if result.View.RevealedSeed == nil {
			t.Fatalf("%s: a finished sealed game reveals its seed", ruleset.name)
		}
		t.Logf("%s, %d players: seats %v won after %d moves (%d calls)", ruleset.name, players, result.Winners(), result.Moves, result.Calls)
	}
}

func TestAPlainGameIsPlayedToItsEndByTheServersBot(t *testing.T) {
	client, ctx := dial(t)
	catalog, err := client.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	greedy, _ := NewPlayer("greedy", catalog, 1)
	server, _ := NewPlayer("server:random", catalog, 0)
	config := &pb.GameConfig{NumPlayers: 2, Seed: 7, Modules: []pb.Module{pb.Module_MODULE_ORIENT}}
	result, err := client.PlayPlain(ctx, config, []Player{greedy, server}, maxMoves)
	if err != nil {
		t.Fatal(err)
	}
	if len(result.Winners()) == 0 || result.Calls != result.Moves+3 {
		t.Fatalf("winners %v after %d moves and %d calls", result.Winners(), result.Moves, result.Calls)
	}
}

func TestRefusalsAreReadFromTheirErrorInfo(t *testing.T) {
	client, ctx := dial(t)
	game, err := client.NewSealedGame(ctx, Config(3, pb.Module_MODULE_STRONGHOLDS), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(game.SeatKeys) != 3 || game.Binding.GetStep() != 0 || len(game.Binding.GetGameId()) != 32 {
		t.Fatalf("keys %v, binding %v", game.SeatKeys, game.Binding)
	}
	seat := game.ActingSeat()
	legal, err := client.LegalActions(ctx, game, seat)
	if err != nil || len(legal) == 0 {
		t.Fatalf("legal actions %v, %v", legal, err)
	}
	action := legal[0].GetAction()
	cases := []struct {
		name   string
		game   *SealedGame
		code   codes.Code
		reason string
	}{
		{"without a key", game.WithoutKeys(), codes.PermissionDenied, "SEAT_KEY_MISSING"},
		{"with another seat's key", &SealedGame{Token: game.Token, SeatKeys: map[uint32]string{seat: game.SeatKeys[(seat+1)%3]}}, codes.PermissionDenied, "SEAT_KEY_INVALID"},
		{"with an altered token", &SealedGame{Token: append(append([]byte{}, game.Token[:len(game.Token)-1]...), game.Token[len(game.Token)-1]^1), SeatKeys: game.SeatKeys}, codes.InvalidArgument, "SEALED_STATE_INVALID"},
	}
	for _, refused := range cases {
		_, err := client.Apply(ctx, refused.game, seat, action)
		decoded, ok := AsError(err)
		if !ok || decoded.Code != refused.code || decoded.Reason != refused.reason || decoded.Domain != Domain {
			t.Fatalf("%s: got %v, want %s %s", refused.name, err, refused.code, refused.reason)
		}
	}
	_, err = client.Apply(ctx, game, (seat+1)%3, action)
	if ReasonOf(err) != "NOT_YOUR_TURN" {
		t.Fatalf("another seat's move: %v", err)
	}
	mine, err := game.ForSeat(seat)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mine.Key((seat + 1) % 3); err == nil {
		t.Fatal("a player's handle holds another seat's key")
	}
	next, err := client.Apply(ctx, mine, seat, action)
	if err != nil || next.Binding.GetStep() != 1 || next.Binding.GetGameId() != game.Binding.GetGameId() {
		t.Fatalf("the move with the seat's own handle: %v, %v", next, err)
	}
	if _, err := client.View(ctx, next, nil); err != nil {
		t.Fatalf("a spectator needs no key: %v", err)
	}
}

func TestAPlainMoveTheRulesRefuseNamesItsReason(t *testing.T) {
	client, ctx := dial(t)
	state, err := client.NewGame(ctx, &pb.GameConfig{NumPlayers: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	gold := &pb.Action{Kind: &pb.Action_TakeTwoGems{TakeTwoGems: &pb.TakeTwoGems{Color: pb.Color_COLOR_GOLD}}}
	_, err = client.ApplyPlain(ctx, state, gold, nil)
	decoded, ok := AsError(err)
	if !ok || decoded.Code != codes.FailedPrecondition || decoded.Reason != "GOLD_NOT_TAKEABLE" || len(decoded.FieldViolations) == 0 {
		t.Fatalf("got %+v", decoded)
	}
}
