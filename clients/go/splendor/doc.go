// Package splendor is a small typed layer over the generated splendor.v1 client (package splendorv1):
// a connection with a deadline per call, refusals decoded to their google.rpc ErrorInfo reason (Error),
// a sealed game handle that keeps the game token and the seat keys (SealedGame), bots that choose among
// the legal actions (RandomBot, GreedyBot), and a loop that plays a game to its end (PlaySealed,
// PlayPlain).
//
//	client, err := splendor.Dial(ctx, "localhost:50051")
//	game, err := client.NewSealedGame(ctx, splendor.Config(2, splendorv1.Module_MODULE_ORIENT), nil)
//	legal, err := client.LegalActions(ctx, game, game.ActingSeat())
//	game, err = client.Apply(ctx, game, game.ActingSeat(), legal[0].Action)
//	_, err = client.Apply(ctx, game.WithoutKeys(), 0, legal[0].Action)
//	splendor.ReasonOf(err) // "SEAT_KEY_MISSING"
//
// Everything else is the generated client itself: Client.Engine returns it.
package splendor
