package graph

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/engine"
)

// Codes of the server's own failures. Each tells a client what to do with its request;
// none shows what failed inside (a database message, a file name): that goes to the log,
// at error level, under the error ID the client also gets (extensions.errorId).
const (
	// CodeUnavailable: nothing was applied; the request may be sent again as it is.
	CodeUnavailable = "UNAVAILABLE"
	// CodeUnknownOutcome: a mutation failed while or after it was written, so it may have
	// been applied. Send it again with the same commandId: the answer is its outcome, and
	// it is applied at most once.
	CodeUnknownOutcome = "UNKNOWN_OUTCOME"
	// CodeTimeout: a query or subscription ran out of time; nothing was changed.
	CodeTimeout = "TIMEOUT"
	// CodeInternal: a query or subscription failed; nothing was changed.
	CodeInternal = "INTERNAL"
)

// presentError gives every error an extensions.code and a readable message: a refusal
// its reason; a failure of the server a code that says whether the request was applied,
// a generic message and an error ID, and one log line with the cause under that ID.
func presentError(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gerr := present(ctx, log, err)
		gerr.Message = cutMessage(gerr.Message)
		return gerr
	}
}

// maxMessageBytes bounds an error's message. A refusal quotes what it refuses (an
// option, a cursor, a name), and a request of 100 aliases each quoting a variable of
// 900 KB was answered with 18 MB of errors: 18 times what it sent.
const maxMessageBytes = 1024

// cutMessage cuts a message longer than maxMessageBytes, on a character's boundary, and
// says how much was left out.
func cutMessage(m string) string {
	if len(m) <= maxMessageBytes {
		return m
	}
	cut := maxMessageBytes
	for cut > 0 && !utf8.RuneStart(m[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes left out)", m[:cut], len(m)-cut)
}

// present gives err its code and message (presentError).
func present(ctx context.Context, log *slog.Logger, err error) *gqlerror.Error {
	gerr := graphql.DefaultErrorPresenter(ctx, err)
	if gerr.Extensions == nil {
		gerr.Extensions = map[string]any{}
	}
	var rej *game.Error
	if errors.As(err, &rej) {
		gerr.Message = rej.Reason
		gerr.Extensions["code"] = string(rej.Code)
		// A refusal whose cause says more (a cooldown's end) gives it as extensions.
		var more interface{ Extensions() map[string]any }
		if errors.As(err, &more) {
			for k, v := range more.Extensions() {
				gerr.Extensions[k] = v
			}
		}
		return gerr
	}
	if gerr.Extensions["code"] != nil {
		return gerr // gqlgen's own: the document did not parse or validate
	}
	if callerLeft(ctx, err) {
		// Its client went away (its socket closed, it completed the subscription):
		// nobody reads this answer, and an error-level line for each field cut short
		// let a client fill the log by hanging up (27,000 lines for one socket).
		log.DebugContext(ctx, "a request was cancelled by its caller", "path", gerr.Path.String())
		gerr.Message = "the request was cancelled before its answer; nothing was changed"
		gerr.Extensions["code"] = CodeTimeout
		return gerr
	}
	code, message, id := logFailure(ctx, log, err, "path", gerr.Path.String())
	gerr.Message = message
	gerr.Extensions["code"] = code
	gerr.Extensions["errorId"] = id
	return gerr
}

// logFailure logs a failure of the server at error level under a new error ID, and
// returns what the client may be told: its code and a message naming the ID.
func logFailure(ctx context.Context, log *slog.Logger, err error, attrs ...any) (code, message, id string) {
	code, message = classify(ctx, err)
	id = errorID()
	log.ErrorContext(ctx, "a request failed", append([]any{"errorId", id, "code", code, "err", err}, attrs...)...)
	return code, fmt.Sprintf("%s (error ID %s)", message, id), id
}

// hideInitFailure wraps a websocket's connection_init, whose error gqlgen sends to the
// client as it is: a failure of the server (the store, while checking the token) is
// logged under an ID and told without its cause; a refusal keeps its reason.
func hideInitFailure(log *slog.Logger, init transport.WebsocketInitFunc) transport.WebsocketInitFunc {
	return func(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		next, ack, err := init(ctx, p)
		var rej *game.Error
		if err == nil || errors.As(err, &rej) {
			return next, ack, err
		}
		code, message, _ := logFailure(ctx, log, err, "path", "connection_init")
		return next, ack, fmt.Errorf("%s: %s", code, message)
	}
}

// callerLeft reports whether err is a query's or subscription's own context cancelled:
// its caller ended it, not a failure of the server. A mutation cut short is still logged,
// as its outcome may be unknown.
func callerLeft(ctx context.Context, err error) bool {
	return errors.Is(err, context.Canceled) && errors.Is(ctx.Err(), context.Canceled) && !isMutation(ctx)
}

func isMutation(ctx context.Context) bool {
	return graphql.HasOperationContext(ctx) && graphql.GetOperationContext(ctx).Operation != nil &&
		graphql.GetOperationContext(ctx).Operation.Operation == ast.Mutation
}

// classify tells what a failure of the server means for the request.
func classify(ctx context.Context, err error) (code, message string) {
	mutation := isMutation(ctx)
	switch {
	case errors.Is(err, engine.ErrOutcomeUnknown) || mutation && !errors.Is(err, engine.ErrUnavailable):
		return CodeUnknownOutcome, "the server failed while handling this command, which may have been applied: send it again with the same commandId to learn its outcome (without one, read the match first)"
	case errors.Is(err, engine.ErrUnavailable):
		return CodeUnavailable, "the server could not handle this request and applied nothing: send it again"
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return CodeTimeout, "the request ran out of time; nothing was changed"
	}
	return CodeInternal, "the server failed to answer; nothing was changed"
}

// recoverPanic turns a panic in a resolver into an error with its stack, which
// presentError logs under an ID and answers like any failure.
func recoverPanic(_ context.Context, v any) error {
	return fmt.Errorf("panic: %v\n%s", v, debug.Stack())
}

// errorID names one failure in the log and in the answer.
func errorID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
