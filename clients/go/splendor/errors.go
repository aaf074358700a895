package splendor

import (
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Domain is the google.rpc.ErrorInfo domain of the engine's own refusals.
const Domain = "splendor.v1"

// Error is a call the engine refused (or that failed), with the rich error details decoded.
type Error struct {
	// Code is the gRPC status code: FailedPrecondition for a move the rules refuse, InvalidArgument for a
	// malformed request, PermissionDenied for a missing or wrong seat key.
	Code codes.Code
	// Message is for people.
	Message string
	// Reason is the ErrorInfo reason, for programs: a RejectionReason name without its prefix, such as
	// "PILE_BELOW_FOUR" or "SEAT_KEY_MISSING"; "" when the error carries none.
	Reason string
	// Domain is the ErrorInfo domain ("splendor.v1" for the engine's refusals).
	Domain string
	// Metadata is the ErrorInfo metadata, such as the acting seat.
	Metadata map[string]string
	// FieldViolations are the request fields at fault (google.rpc.BadRequest).
	FieldViolations []FieldViolation
}

// FieldViolation is a request field at fault, as a proto path, and what is wrong with it.
type FieldViolation struct {
	Field       string
	Description string
}

func (e *Error) Error() string {
	head := e.Code.String()
	if e.Reason != "" {
		head += " " + e.Reason
	}
	text := head
	if e.Message != "" {
		text += ": " + e.Message
	}
	if len(e.FieldViolations) > 0 {
		fields := make([]string, len(e.FieldViolations))
		for i, violation := range e.FieldViolations {
			fields[i] = violation.Field
		}
		text += " (" + strings.Join(fields, "; ") + ")"
	}
	return text
}

// AsError decodes an error returned by a call of the generated client (or of Client) into an *Error. It
// returns nil for nil and false for an error that is not a gRPC status.
func AsError(err error) (*Error, bool) {
	if err == nil {
		return nil, false
	}
	var decoded *Error
	if errors.As(err, &decoded) {
		return decoded, true
	}
	st, ok := status.FromError(err)
	if !ok {
		return nil, false
	}
	decoded = &Error{Code: st.Code(), Message: st.Message()}
	for _, detail := range st.Details() {
		switch detail := detail.(type) {
		case *errdetails.ErrorInfo:
			decoded.Reason = detail.GetReason()
			decoded.Domain = detail.GetDomain()
			decoded.Metadata = detail.GetMetadata()
		case *errdetails.BadRequest:
			for _, violation := range detail.GetFieldViolations() {
				decoded.FieldViolations = append(decoded.FieldViolations, FieldViolation{violation.GetField(), violation.GetDescription()})
			}
		}
	}
	return decoded, true
}

// ReasonOf is the ErrorInfo reason of err ("" when it has none).
func ReasonOf(err error) string {
	if decoded, ok := AsError(err); ok {
		return decoded.Reason
	}
	return ""
}

// decode turns a call's error into an *Error (other errors are wrapped as they are).
func decode(method string, err error) error {
	if err == nil {
		return nil
	}
	if decoded, ok := AsError(err); ok {
		return decoded
	}
	return fmt.Errorf("%s: %w", method, err)
}
