package splendor

import (
	"context"
	"fmt"

	pb "splendor-engine/clients/go/splendorv1"
)

// Result is how a game ended and what it took.
type Result struct {
	// View is the final game as a spectator sees it (ranking, winners, the revealed seed of a sealed game).
	View *pb.GameView
	// Moves is the number of actions applied, decisions included; Calls the calls made to play them.
	Moves, Calls int
}

// Winners are the seats sharing first place.
func (r *Result) Winners() []uint32 { return r.View.GetWinners() }

// PlaySealed deals a sealed game of config and plays it to its end, seat i by players[i % len(players)],
// holding only the token and the seat keys: each move is asked for with the acting seat's key. maxMoves
// bounds the game (an error beyond it).
func (c *Client) PlaySealed(ctx context.Context, config *pb.GameConfig, players []Player, maxMoves int) (*Result, error) {
	game, err := c.NewSealedGame(ctx, config, nil)
	if err != nil {
		return nil, err
	}
	result := &Result{Calls: 1}
	for !game.Finished() {
		if result.Moves >= maxMoves {
			return nil, fmt.Errorf("no end after %d moves", maxMoves)
		}
		seat := game.ActingSeat()
		player := players[int(seat)%len(players)]
		if player.Bot == nil {
			game, err = c.ApplyBot(ctx, game, seat, &pb.BotChoice{Policy: player.ServerPolicy, Seed: uint64(result.Moves)})
			result.Calls++
		} else {
			var legal []*pb.LegalAction
			legal, err = c.LegalActions(ctx, game, seat)
			if err == nil && len(legal) == 0 {
				err = fmt.Errorf("seat %d must act but has no legal action", seat)
			}
			if err == nil {
				game, err = c.Apply(ctx, game, seat, player.Bot.Choose(legal).GetAction())
			}
			result.Calls += 2
		}
		if err != nil {
			return nil, fmt.Errorf("move %d (seat %d, %s): %w", result.Moves, seat, player.Name(), err)
		}
		result.Moves++
	}
	result.View, err = c.View(ctx, game, nil)
	result.Calls++
	return result, err
}

// PlayPlain deals a plain game of config and plays it to its end like PlaySealed, holding the whole state
// (as a trusted platform does): one call a move, which also returns the next seat's legal actions.
func (c *Client) PlayPlain(ctx context.Context, config *pb.GameConfig, players []Player, maxMoves int) (*Result, error) {
	state, err := c.NewGame(ctx, config)
	if err != nil {
		return nil, err
	}
	legal, err := c.LegalActionsPlain(ctx, state)
	if err != nil {
		return nil, err
	}
	result := &Result{Calls: 2}
	for state.GetEndReason() == pb.EndReason_END_REASON_UNSPECIFIED {
		if result.Moves >= maxMoves {
			return nil, fmt.Errorf("no end after %d moves", maxMoves)
		}
		seat := ActingSeat(state.GetPendingDecision(), state.GetSeat())
		player := players[int(seat)%len(players)]
		var response *pb.ApplyActionResponse
		if player.Bot == nil {
			response, err = c.ApplyPlain(ctx, state, nil, &pb.BotChoice{Policy: player.ServerPolicy, Seed: uint64(result.Moves)})
		} else {
			response, err = c.ApplyPlain(ctx, state, player.Bot.Choose(legal).GetAction(), nil)
		}
		if err != nil {
			return nil, fmt.Errorf("move %d (seat %d, %s): %w", result.Moves, seat, player.Name(), err)
		}
		state, legal = response.GetState(), response.GetLegalActions()
		result.Calls++
		result.Moves++
	}
	result.View, err = c.ViewPlain(ctx, state, nil)
	result.Calls++
	return result, err
}
