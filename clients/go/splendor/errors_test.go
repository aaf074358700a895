package splendor

import (
	"errors"
	"fmt"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestAnErrorDecodesItsErrorInfoAndBadRequest(t *testing.T) {
	st, err := status.New(codes.FailedPrecondition, "the bank holds 3 red").WithDetails(
		&errdetails.ErrorInfo{Reason: "PILE_BELOW_FOUR", Domain: Domain, Metadata: map[string]string{"acting_seat": "1"}},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "action.take_two_gems.color", Description: "3 left"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	decoded, ok := AsError(st.Err())
	if !ok {
		t.Fatal("a status error was not decoded")
	}
	if decoded.Code != codes.FailedPrecondition || decoded.Reason != "PILE_BELOW_FOUR" || decoded.Domain != Domain {
		t.Fatalf("decoded %+v", decoded)
	}
	if decoded.Metadata["acting_seat"] != "1" || len(decoded.FieldViolations) != 1 || decoded.FieldViolations[0].Field != "action.take_two_gems.color" {
		t.Fatalf("details lost: %+v", decoded)
	}
	want := "FailedPrecondition PILE_BELOW_FOUR: the bank holds 3 red (action.take_two_gems.color)"
	if decoded.Error() != want {
		t.Fatalf("Error() = %q, want %q", decoded.Error(), want)
	}
}

func TestTheReasonSurvivesWrapping(t *testing.T) {
	refused := &Error{Code: codes.PermissionDenied, Reason: "SEAT_KEY_MISSING"}
	if got := ReasonOf(fmt.Errorf("move 3: %w", refused)); got != "SEAT_KEY_MISSING" {
		t.Fatalf("ReasonOf = %q", got)
	}
}

func TestAnErrorWithoutStatusOrDetailsHasNoReason(t *testing.T) {
	if _, ok := AsError(nil); ok {
		t.Fatal("nil decoded")
	}
	if _, ok := AsError(errors.New("not a status")); ok {
		t.Fatal("a plain error decoded")
	}
	decoded, ok := AsError(status.Error(codes.Unavailable, "no server"))
	if !ok || decoded.Reason != "" || decoded.Code != codes.Unavailable {
		t.Fatalf("decoded %+v", decoded)
	}
}
