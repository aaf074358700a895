// Command splendor-bot plays whole games against a splendor.v1 server, sealed by default: each seat by a bot
// of this client ("random", "greedy") or by a policy of the server ("server:greedy"), holding only the game
// token and the seat keys. Before the first game it sends a move without a seat key and prints the reason
// of the refusal, read from the error's google.rpc ErrorInfo.
//
//	splendor-bot --address localhost:50051 --module all --players 3 --bots greedy,random,server:greedy
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"splendor-engine/clients/go/splendor"
	pb "splendor-engine/clients/go/splendorv1"
)

type options struct {
	address  string
	module   string
	players  uint
	games    int
	bots     string
	plain    bool
	seed     int64
	maxMoves int
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	opts, err := parse(args, stderr)
	if err != nil {
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := play(ctx, opts, stdout); err != nil {
		fmt.Fprintln(stderr, "splendor-bot:", err)
		return 1
	}
	return 0
}

func parse(args []string, stderr io.Writer) (options, error) {
	flags := flag.NewFlagSet("splendor-bot", flag.ContinueOnError)
	flags.SetOutput(stderr)
	var opts options
	address := os.Getenv("SPLENDOR_ADDRESS")
	if address == "" {
		address = "localhost:50051"
	}
	flags.StringVar(&opts.address, "address", address, "the server's gRPC address (default: $SPLENDOR_ADDRESS, else localhost:50051)")
	flags.StringVar(&opts.module, "module", "base", "base, a module (cities, trading_posts, strongholds, orient), or all: a game of each")
	flags.UintVar(&opts.players, "players", 2, "players, 2 to 4")
	flags.IntVar(&opts.games, "games", 1, "games of each ruleset")
	flags.StringVar(&opts.bots, "bots", "greedy,random", "who plays each seat, in turn: random, greedy or server:POLICY (comma-separated)")
	flags.BoolVar(&opts.plain, "plain", false, "play plain states (the whole state in each call) instead of sealed games")
	flags.Int64Var(&opts.seed, "seed", 1, "seeds the bots of this client (and a plain game's deal)")
	flags.IntVar(&opts.maxMoves, "max-moves", 5000, "give up a game after this many moves")
	if err := flags.Parse(args); err != nil {
		return opts, err
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "splendor-bot: unexpected arguments %v\n", flags.Args())
		return opts, errors.New("arguments")
	}
	return opts, nil
}

// rulesets are the configs' modules of the chosen ruleset (or of every one) by name.
func rulesets(module string) ([]string, map[string][]pb.Module, error) {
	known := map[string][]pb.Module{"base": nil}
	for name, value := range splendor.Modules() {
		known[name] = []pb.Module{value}
	}
	if module == "all" {
		names := make([]string, 0, len(known))
		for name := range known {
			names = append(names, name)
		}
		sort.Strings(names)
		return names, known, nil
	}
	if _, ok := known[module]; !ok {
		return nil, nil, fmt.Errorf("unknown module %q", module)
	}
	return []string{module}, known, nil
}

func play(ctx context.Context, opts options, out io.Writer) error {
	names, modules, err := rulesets(opts.module)
	if err != nil {
		return err
	}
	client, err := splendor.Dial(ctx, opts.address)
	if err != nil {
		return err
	}
	defer client.Close()
	catalog, err := client.Catalog(ctx)
	if err != nil {
		return err
	}
	if !opts.plain {
		reason, err := refusalWithoutKey(ctx, client, uint32(opts.players))
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "a move without its seat key is refused: %s\n", reason)
	}
	mode := map[bool]string{true: "plain", false: "sealed"}[opts.plain]
	for _, name := range names {
		for game := 0; game < opts.games; game++ {
			seed := opts.seed + int64(game)
			players, err := seats(opts.bots, int(opts.players), catalog, seed)
			if err != nil {
				return err
			}
			config := splendor.Config(uint32(opts.players), modules[name]...)
			var result *splendor.Result
			if opts.plain {
				config.Seed = uint64(seed)
				result, err = client.PlayPlain(ctx, config, players, opts.maxMoves)
			} else {
				result, err = client.PlaySealed(ctx, config, players, opts.maxMoves)
			}
			if err != nil {
				return fmt.Errorf("%s game %d: %w", name, game+1, err)
			}
			fmt.Fprintf(out, "%s, %d players, %s: %s after %d moves (%d calls)\n", name, opts.players, mode, outcome(result.View, players), result.Moves, result.Calls)
		}
	}
	return nil
}

// refusalWithoutKey deals a sealed game and sends its first move without a seat key: the reason of the
// refusal, from its ErrorInfo.
func refusalWithoutKey(ctx context.Context, client *splendor.Client, players uint32) (string, error) {
	game, err := client.NewSealedGame(ctx, splendor.Config(players), nil)
	if err != nil {
		return "", err
	}
	seat := game.ActingSeat()
	legal, err := client.LegalActions(ctx, game, seat)
	if err != nil {
		return "", err
	}
	_, err = client.Apply(ctx, game.WithoutKeys(), seat, legal[0].GetAction())
	refused, ok := splendor.AsError(err)
	if !ok || refused.Reason == "" {
		return "", fmt.Errorf("a move without its seat key was not refused with a reason: %v", err)
	}
	return fmt.Sprintf("%s %s", refused.Code, refused.Reason), nil
}

func seats(spec string, count int, catalog *pb.Catalog, seed int64) ([]splendor.Player, error) {
	names := strings.Split(spec, ",")
	players := make([]splendor.Player, count)
	for seat := range players {
		player, err := splendor.NewPlayer(strings.TrimSpace(names[seat%len(names)]), catalog, seed*10+int64(seat))
		if err != nil {
			return nil, err
		}
		players[seat] = player
	}
	return players, nil
}

func outcome(view *pb.GameView, players []splendor.Player) string {
	winners := view.GetWinners()
	names := make([]string, len(winners))
	for i, seat := range winners {
		names[i] = fmt.Sprintf("seat %d (%s)", seat, players[seat].Name())
	}
	verb := "wins"
	if len(winners) > 1 {
		verb = "share the win"
	}
	prestige := uint32(0)
	for _, standing := range view.GetRanking() {
		if standing.GetPlace() == 1 {
			prestige = standing.GetPrestige()
		}
	}
	reason := strings.ToLower(strings.TrimPrefix(view.GetEndReason().String(), "END_REASON_"))
	return fmt.Sprintf("%s %s with %d prestige (%s)", strings.Join(names, " and "), verb, prestige, strings.ReplaceAll(reason, "_", " "))
}
