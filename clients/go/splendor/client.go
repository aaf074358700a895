package splendor

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc"

	pb "splendor-engine/clients/go/splendorv1"
)

// DefaultTimeout is the deadline of each call made through Client.
const DefaultTimeout = 10 * time.Second

// Client is a connection to the engine and the calls a bot needs, each with its own deadline.
type Client struct {
	conn    *grpc.ClientConn
	engine  pb.EngineServiceClient
	Timeout time.Duration
}

// Dial connects to a server at address (host:port, plaintext gRPC) and waits until it is ready or ctx ends.
func Dial(ctx context.Context, address string) (*Client, error) {
	conn, err := grpc.DialContext(ctx, address, grpc.WithInsecure(), grpc.WithBlock())
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", address, err)
	}
	return &Client{conn: conn, engine: pb.NewEngineServiceClient(conn), Timeout: DefaultTimeout}, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Conn is the underlying connection.
func (c *Client) Conn() *grpc.ClientConn { return c.conn }

// Engine is the generated client, for every call and field this layer does not cover.
func (c *Client) Engine() pb.EngineServiceClient { return c.engine }

func (c *Client) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.Timeout)
}

// Catalog is the static game data: cards, nobles, cities, the action-id layout, the server's bots.
func (c *Client) Catalog(ctx context.Context) (*pb.Catalog, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	response, err := c.engine.GetCatalog(ctx, &pb.GetCatalogRequest{})
	return response.GetCatalog(), decode("GetCatalog", err)
}

// SealedOptions are how to deal a sealed game: whose view the response carries (nil: a spectator's), and
// PublicDeal to deal from config.Seed as given (tests, replays of known deals).
type SealedOptions struct {
	Seat       *uint32
	PublicDeal bool
}

// NewSealedGame deals a sealed game: a token, the view of opts.Seat, and every seat's key.
func (c *Client) NewSealedGame(ctx context.Context, config *pb.GameConfig, opts *SealedOptions) (*SealedGame, error) {
	if opts == nil {
		opts = &SealedOptions{}
	}
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	request := &pb.CreateGameRequest{Config: config, Sealed: true, Seat: opts.Seat, PublicDeal: opts.PublicDeal}
	response, err := c.engine.CreateGame(ctx, request)
	if err != nil {
		return nil, decode("CreateGame", err)
	}
	keys := make(map[uint32]string, len(response.GetSeatKeys()))
	for seat, key := range response.GetSeatKeys() {
		keys[uint32(seat)] = key
	}
	return &SealedGame{
		Token:    response.GetSealedState(),
		Binding:  response.GetSealedStateBinding(),
		View:     response.GetView(),
		Events:   response.GetEvents(),
		SeatKeys: keys,
	}, nil
}

// LegalActions are the legal actions of seat in a sealed game, asked with its key (empty unless it must act).
func (c *Client) LegalActions(ctx context.Context, game *SealedGame, seat uint32) ([]*pb.LegalAction, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	request := &pb.ListLegalActionsRequest{
		StateSource: &pb.ListLegalActionsRequest_SealedState{SealedState: game.Token},
		Seat:        &seat,
		SeatKey:     game.SeatKeys[seat],
	}
	response, err := c.engine.ListLegalActions(ctx, request)
	return response.GetActions(), decode("ListLegalActions", err)
}

// Apply sends seat's action in a sealed game with seat's key; the new game is seen as seat sees it.
func (c *Client) Apply(ctx context.Context, game *SealedGame, seat uint32, action *pb.Action) (*SealedGame, error) {
	return c.apply(ctx, game, &pb.ApplyActionRequest{Action: action, Seat: &seat, SeatKey: game.SeatKeys[seat]})
}

// ApplyBot lets the server's policy choose and apply seat's move (seat must act), with seat's key.
func (c *Client) ApplyBot(ctx context.Context, game *SealedGame, seat uint32, policy *pb.BotChoice) (*SealedGame, error) {
	return c.apply(ctx, game, &pb.ApplyActionRequest{Bot: policy, Seat: &seat, SeatKey: game.SeatKeys[seat]})
}

func (c *Client) apply(ctx context.Context, game *SealedGame, request *pb.ApplyActionRequest) (*SealedGame, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	request.StateSource = &pb.ApplyActionRequest_SealedState{SealedState: game.Token}
	response, err := c.engine.ApplyAction(ctx, request)
	if err != nil {
		return nil, decode("ApplyAction", err)
	}
	return &SealedGame{
		Token:    response.GetSealedState(),
		Binding:  response.GetSealedStateBinding(),
		View:     response.GetView(),
		Events:   response.GetEvents(),
		SeatKeys: game.SeatKeys,
		acting:   response.ActingSeat,
	}, nil
}

// View is the sealed game as seat sees it (nil: a spectator, who needs no key).
func (c *Client) View(ctx context.Context, game *SealedGame, seat *uint32) (*pb.GameView, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	request := &pb.GetPlayerViewRequest{StateSource: &pb.GetPlayerViewRequest_SealedState{SealedState: game.Token}, Seat: seat}
	if seat != nil {
		request.SeatKey = game.SeatKeys[*seat]
	}
	response, err := c.engine.GetPlayerView(ctx, request)
	return response.GetView(), decode("GetPlayerView", err)
}

// NewGame deals a plain game: the whole state, for a trusted platform that keeps it.
func (c *Client) NewGame(ctx context.Context, config *pb.GameConfig) (*pb.GameState, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	response, err := c.engine.CreateGame(ctx, &pb.CreateGameRequest{Config: config})
	return response.GetState(), decode("CreateGame", err)
}

// ApplyPlain applies an action (or, with action nil, the choice of the server's policy) to a plain state and
// asks for the next seat's legal actions in the same call.
func (c *Client) ApplyPlain(ctx context.Context, state *pb.GameState, action *pb.Action, policy *pb.BotChoice) (*pb.ApplyActionResponse, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	request := &pb.ApplyActionRequest{
		StateSource:         &pb.ApplyActionRequest_State{State: state},
		Action:              action,
		Bot:                 policy,
		IncludeLegalActions: true,
	}
	response, err := c.engine.ApplyAction(ctx, request)
	return response, decode("ApplyAction", err)
}

// LegalActionsPlain are the legal actions of the seat that must act in a plain state.
func (c *Client) LegalActionsPlain(ctx context.Context, state *pb.GameState) ([]*pb.LegalAction, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	response, err := c.engine.ListLegalActions(ctx, &pb.ListLegalActionsRequest{StateSource: &pb.ListLegalActionsRequest_State{State: state}})
	return response.GetActions(), decode("ListLegalActions", err)
}

// ViewPlain is a plain state as seat sees it (nil: a spectator): what a platform shows a player.
func (c *Client) ViewPlain(ctx context.Context, state *pb.GameState, seat *uint32) (*pb.GameView, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	request := &pb.GetPlayerViewRequest{StateSource: &pb.GetPlayerViewRequest_State{State: state}, Seat: seat}
	response, err := c.engine.GetPlayerView(ctx, request)
	return response.GetView(), decode("GetPlayerView", err)
}
