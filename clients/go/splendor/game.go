package splendor

import (
	"fmt"

	pb "splendor-engine/clients/go/splendorv1"
)

// SealedGame is a game held as a token, as a client that must not see the hidden cards holds it: the token to
// send back, what it is bound to, the game as one seat (or a spectator) sees it, and the seat keys the holder
// was given. Each call returns a new SealedGame carrying the same keys.
type SealedGame struct {
	// Token is the sealed state: send it back with the next call.
	Token []byte
	// Binding is what the token is bound to (game id, turn, step), in clear.
	Binding *pb.SealedStateBinding
	// View is the game as the last call's seat (or a spectator) may see it.
	View *pb.GameView
	// Events are what the last call caused, redacted for the same viewer.
	Events []*pb.Event
	// SeatKeys are the keys this handle holds, by seat: every seat's after NewSealedGame (hand each player
	// only its own), none after WithoutKeys.
	SeatKeys map[uint32]string
	// acting is the seat that must act next, when the last call said so.
	acting *uint32
}

// Finished reports whether the game has ended.
func (g *SealedGame) Finished() bool {
	return g.View.GetEndReason() != pb.EndReason_END_REASON_UNSPECIFIED
}

// ActingSeat is the seat that must act: the deciding seat while a decision is pending.
func (g *SealedGame) ActingSeat() uint32 {
	if g.acting != nil {
		return *g.acting
	}
	return ActingSeat(g.View.GetPendingDecision(), g.View.GetSeat())
}

// Key is the seat key this handle holds for seat.
func (g *SealedGame) Key(seat uint32) (string, error) {
	key, ok := g.SeatKeys[seat]
	if !ok {
		return "", fmt.Errorf("this handle holds no key of seat %d", seat)
	}
	return key, nil
}

// WithoutKeys is the same game with no seat key: a spectator's handle (or, for tests, a caller without keys).
func (g *SealedGame) WithoutKeys() *SealedGame {
	copied := *g
	copied.SeatKeys = map[uint32]string{}
	return &copied
}

// ForSeat is the handle of one player: the same game with only seat's key, to hand to that player.
func (g *SealedGame) ForSeat(seat uint32) (*SealedGame, error) {
	key, err := g.Key(seat)
	if err != nil {
		return nil, err
	}
	copied := *g
	copied.SeatKeys = map[uint32]string{seat: key}
	return &copied, nil
}

// ActingSeat is the seat that must act in a position: the deciding seat while a decision is pending, else seat.
func ActingSeat(pending *pb.PendingDecision, seat uint32) uint32 {
	if pending.GetKind() != pb.DecisionKind_DECISION_KIND_UNSPECIFIED {
		return pending.GetSeat()
	}
	return seat
}

// Config is the config of a game of numPlayers with the given modules (none: the base game); the seed is 0,
// as a sealed game's must be (the server draws it).
func Config(numPlayers uint32, modules ...pb.Module) *pb.GameConfig {
	return &pb.GameConfig{NumPlayers: numPlayers, Modules: modules}
}

// Modules are the contract's modules by their names in lower case ("cities", "trading_posts",
// "strongholds", "orient"), from the generated enum.
func Modules() map[string]pb.Module {
	modules := map[string]pb.Module{}
	for value, name := range pb.Module_name {
		if pb.Module(value) != pb.Module_MODULE_UNSPECIFIED {
			modules[lower(name[len("MODULE_"):])] = pb.Module(value)
		}
	}
	return modules
}

func lower(text string) string {
	out := []byte(text)
	for i, c := range out {
		if 'A' <= c && c <= 'Z' {
			out[i] = c + ('a' - 'A')
		}
	}
	return string(out)
}
