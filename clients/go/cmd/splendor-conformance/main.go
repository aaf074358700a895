// Command splendor-conformance (the Go runner) runs the contract's conformance vectors against a
// splendor.v1 server over gRPC and exits 1 when any answer differs.
//
//	go run ./cmd/splendor-conformance --address localhost:50051 --vectors ../../conformance
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"

	"google.golang.org/grpc"

	"splendor-engine/clients/go/conformance"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("splendor-conformance", flag.ContinueOnError)
	flags.SetOutput(stderr)
	address := flags.String("address", "localhost:50051", "the server's gRPC address")
	vectors := flags.String("vectors", "conformance", "the vectors' directory (the one holding manifest.json)")
	only := flags.String("only", "", "only the cases and games whose name matches this regular expression")
	skip := flags.Bool("skip-engine-specific", false, "leave out the cases whose answer depends on this engine's seeded bots, playouts and samples or on its default bounds")
	noGames := flags.Bool("no-games", false, "leave out the whole games (replays)")
	timeout := flags.Duration("timeout", 30*time.Second, "time allowed for each call")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	corpus, err := conformance.Load(*vectors)
	if err != nil {
		fmt.Fprintln(stderr, "splendor-conformance:", err)
		return 2
	}
	opts := conformance.Options{SkipEngineSpecific: *skip, NoGames: *noGames, Timeout: *timeout}
	if *only != "" {
		if opts.Only, err = regexp.Compile(*only); err != nil {
			fmt.Fprintln(stderr, "splendor-conformance: --only:", err)
			return 2
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	conn, err := grpc.DialContext(ctx, *address, grpc.WithInsecure(), grpc.WithBlock())
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "splendor-conformance: connecting to %s: %v\n", *address, err)
		return 1
	}
	defer conn.Close()
	fmt.Fprintf(stdout, "%d calls in %d cases and %d games of %s, against %s over grpc\n", corpus.Calls(), len(corpus.Cases), len(corpus.Games), corpus.Contract, *address)
	report := conformance.Run(context.Background(), conn, corpus, opts, func(failure conformance.Failure) { fmt.Fprintln(stdout, failure) })
	fmt.Fprintln(stdout, report.Summary())
	if !report.Passed() {
		return 1
	}
	return 0
}
