package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"splendor-engine/clients/go/splendor"
	pb "splendor-engine/clients/go/splendorv1"
)

// Domain is the ErrorInfo domain every refusal must carry.
const Domain = splendor.Domain

// Options choose what to run: the cases and games whose name matches Only (all when nil), without the
// engine-specific cases when SkipEngineSpecific, without the whole games when NoGames.
type Options struct {
	Only               *regexp.Regexp
	SkipEngineSpecific bool
	NoGames            bool
	Timeout            time.Duration // of each call; 0: 30 s
}

// Failure is a call whose answer differs from the expected one.
type Failure struct {
	Case   string
	Step   int // -1 for a whole game
	Method string
	Why    string
}

func (f Failure) String() string {
	if f.Step < 0 {
		return fmt.Sprintf("FAIL %s (%s): %s", f.Case, f.Method, f.Why)
	}
	return fmt.Sprintf("FAIL %s step %d (%s): %s", f.Case, f.Step, f.Method, f.Why)
}

// Report is what a run checked and what failed.
type Report struct {
	Cases, Calls, Games, Skipped int
	Failures                     []Failure
	Elapsed                      time.Duration
}

// Passed reports whether something was checked and nothing failed.
func (r *Report) Passed() bool { return len(r.Failures) == 0 && r.Calls+r.Games > 0 }

// Summary is the run in one line.
func (r *Report) Summary() string {
	verdict := "all passed"
	if !r.Passed() {
		verdict = fmt.Sprintf("%d FAILED", len(r.Failures))
	}
	skipped := ""
	if r.Skipped > 0 {
		skipped = fmt.Sprintf(", %d engine-specific cases skipped", r.Skipped)
	}
	return fmt.Sprintf("conformance: %d calls in %d cases and %d whole games%s: %s (%.1f s)", r.Calls, r.Cases, r.Games, skipped, verdict, r.Elapsed.Seconds())
}

// Runner calls the methods of splendor.v1.EngineService by name over a gRPC connection: request and response
// types come from the service's descriptor, so a method added to the contract needs nothing here.
type Runner struct {
	conn    grpc.ClientConnInterface
	service protoreflect.ServiceDescriptor
	timeout time.Duration
}

// NewRunner is a runner over conn.
func NewRunner(conn grpc.ClientConnInterface, timeout time.Duration) *Runner {
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	service := pb.File_splendor_v1_engine_service_proto.Services().ByName("EngineService")
	return &Runner{conn: conn, service: service, timeout: timeout}
}

// Run runs the corpus; log (when not nil) gets each failure as it happens.
func Run(ctx context.Context, conn grpc.ClientConnInterface, corpus *Corpus, opts Options, log func(Failure)) *Report {
	runner := NewRunner(conn, opts.Timeout)
	report := &Report{}
	started := time.Now()
	fail := func(failure Failure) {
		report.Failures = append(report.Failures, failure)
		if log != nil {
			log(failure)
		}
	}
	for _, testCase := range corpus.Cases {
		if opts.Only != nil && !opts.Only.MatchString(testCase.Name) {
			continue
		}
		if testCase.EngineSpecific && opts.SkipEngineSpecific {
			report.Skipped++
			continue
		}
		report.Cases++
		if failure := runner.runCase(ctx, testCase, report); failure != nil {
			fail(*failure)
		}
	}
	for _, game := range corpus.Games {
		if opts.NoGames || (opts.Only != nil && !opts.Only.MatchString(game.Name)) {
			continue
		}
		report.Games++
		if why := runner.runGame(ctx, game); why != "" {
			fail(Failure{game.Name, -1, "ReplayGame", why})
		}
	}
	report.Elapsed = time.Since(started)
	return report
}

// runCase runs a case's steps in order; a failed step ends the case (later steps may use its answer).
func (r *Runner) runCase(ctx context.Context, testCase Case, report *Report) *Failure {
	answers := []interface{}{}
	for index, step := range testCase.Steps {
		report.Calls++
		answer, why := r.checkStep(ctx, step, answers)
		if why != "" {
			return &Failure{testCase.Name, index, step.Method, why}
		}
		answers = append(answers, answer)
	}
	return nil
}

func (r *Runner) messages(method string) (protoreflect.MethodDescriptor, proto.Message, proto.Message, error) {
	descriptor := r.service.Methods().ByName(protoreflect.Name(method))
	if descriptor == nil {
		return nil, nil, nil, fmt.Errorf("the contract has no method %s", method)
	}
	request, err := protoregistry.GlobalTypes.FindMessageByName(descriptor.Input().FullName())
	if err != nil {
		return nil, nil, nil, err
	}
	response, err := protoregistry.GlobalTypes.FindMessageByName(descriptor.Output().FullName())
	if err != nil {
		return nil, nil, nil, err
	}
	return descriptor, request.New().Interface(), response.New().Interface(), nil
}

// call sends request (JSON) to method: the response, or the refusal; a problem is an error of the vector or
// a call that failed without a gRPC status.
func (r *Runner) call(ctx context.Context, method string, request interface{}) (proto.Message, *splendor.Error, error) {
	descriptor, message, response, err := r.messages(method)
	if err != nil {
		return nil, nil, err
	}
	if err := fromJSON(request, message); err != nil {
		return nil, nil, fmt.Errorf("bad vector: the request does not parse: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	path := fmt.Sprintf("/%s/%s", r.service.FullName(), descriptor.Name())
	if err := r.conn.Invoke(ctx, path, message, response); err != nil {
		refused, ok := splendor.AsError(err)
		if !ok {
			return nil, nil, err
		}
		return nil, refused, nil
	}
	return response, nil, nil
}

func (r *Runner) checkStep(ctx context.Context, step Step, answers []interface{}) (interface{}, string) {
	request, err := resolve(step.Request, answers)
	if err != nil {
		return nil, "bad vector: " + err.Error()
	}
	response, refused, err := r.call(ctx, step.Method, request)
	if err != nil {
		return nil, err.Error()
	}
	if refused != nil {
		got := fmt.Sprintf("%s %s", codeName(refused.Code.String()), refused.Reason)
		if step.Refusal == nil {
			return nil, fmt.Sprintf("refused (%s: %s); expected a response", got, refused.Message)
		}
		want := fmt.Sprintf("%s %s", step.Refusal.Code, step.Refusal.Reason)
		if got != want {
			return nil, fmt.Sprintf("refused with %s; expected %s (%s)", got, want, refused.Message)
		}
		if refused.Domain != Domain {
			return nil, fmt.Sprintf("refused with %s in ErrorInfo domain %q; expected %q", got, refused.Domain, Domain)
		}
		return nil, ""
	}
	actual, err := toJSON(response)
	if err != nil {
		return nil, err.Error()
	}
	if step.Refusal != nil {
		return actual, fmt.Sprintf("answered; expected a refusal %s %s", step.Refusal.Code, step.Refusal.Reason)
	}
	return actual, compare(step.Response, actual, step.Normalise, response)
}

// compare says why actual (a response's JSON) is not expected once both are normalised ("" when it is).
func compare(expected, actual interface{}, paths [][]string, kind proto.Message) string {
	if absent := missing(expected, actual, paths); len(absent) > 0 {
		return "the response has no " + strings.Join(absent, ", ")
	}
	want := kind.ProtoReflect().New().Interface()
	got := kind.ProtoReflect().New().Interface()
	if err := fromJSON(normalised(expected, paths), want); err != nil {
		return fmt.Sprintf("bad vector: the expected response does not parse: %v", err)
	}
	if err := fromJSON(normalised(actual, paths), got); err != nil {
		return fmt.Sprintf("the response does not parse back: %v", err)
	}
	if proto.Equal(want, got) {
		return ""
	}
	wantJSON, _ := toJSON(want)
	gotJSON, _ := toJSON(got)
	if difference := firstDifference(wantJSON, gotJSON, ""); difference != "" {
		return difference
	}
	return "the responses differ"
}

// runGame replays a whole game without events: the digest after every action, and the final state.
func (r *Runner) runGame(ctx context.Context, game Game) string {
	request := map[string]interface{}{"config": game.Config, "actions": game.Actions, "skipEvents": true}
	response, refused, err := r.call(ctx, "ReplayGame", request)
	if err != nil {
		return err.Error()
	}
	if refused != nil {
		return fmt.Sprintf("refused (%v)", refused)
	}
	replay := response.(*pb.ReplayGameResponse)
	for i, digest := range replay.GetStateDigests() {
		if i < len(game.Digests) && digest != game.Digests[i] {
			return fmt.Sprintf("the digest after action %d is %s, expected %s", i, digest, game.Digests[i])
		}
	}
	if len(replay.GetStateDigests()) != len(game.Digests) {
		return fmt.Sprintf("%d digests, expected %d", len(replay.GetStateDigests()), len(game.Digests))
	}
	actual, err := toJSON(response)
	if err != nil {
		return err.Error()
	}
	digests := make([]interface{}, len(game.Digests))
	for i, digest := range game.Digests {
		digests[i] = digest
	}
	return compare(map[string]interface{}{"state": game.FinalState, "stateDigests": digests}, actual, nil, response)
}

// codeName is a gRPC code's canonical name (FAILED_PRECONDITION) from its Go name (FailedPrecondition).
func codeName(goName string) string {
	if goName == "Canceled" {
		return "CANCELLED"
	}
	var out strings.Builder
	for i, c := range goName {
		if i > 0 && 'A' <= c && c <= 'Z' && 'a' <= goName[i-1] && goName[i-1] <= 'z' {
			out.WriteByte('_')
		}
		out.WriteRune(c)
	}
	return strings.ToUpper(out.String())
}

func fromJSON(value interface{}, message proto.Message) error {
	text, err := json.Marshal(value)
	if err != nil {
		return err
	}
	return protojson.Unmarshal(text, message)
}

func toJSON(message proto.Message) (interface{}, error) {
	text, err := protojson.Marshal(message)
	if err != nil {
		return nil, err
	}
	decoder := json.NewDecoder(bytes.NewReader(text))
	decoder.UseNumber()
	var value interface{}
	err = decoder.Decode(&value)
	return value, err
}
