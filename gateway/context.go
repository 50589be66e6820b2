package gateway

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
)

type ctxKey int

const (
	authKey ctxKey = iota
	requestIDKey
)

// httpContext copies what the gateway needs from an HTTP request into the
// context of the MCP messages it carries: the caller's Authorization header
// (forwarded to forward_auth servers, never logged), the request id
// (X-Request-ID, the operation_id of the call's logs), and the caller's
// role and editor name as the HTTP face authenticated them.
func httpContext(ctx context.Context, r *http.Request) context.Context {
	if a := r.Header.Get("Authorization"); a != "" {
		ctx = context.WithValue(ctx, authKey, a)
	}
	if id := r.Header.Get("X-Request-ID"); id != "" {
		ctx = context.WithValue(ctx, requestIDKey, id)
	}
	if role := r.Header.Get(config.HeaderRole); role != "" {
		ctx = context.WithValue(ctx, roleKey, role)
	}
	if name := r.Header.Get(config.HeaderEditor); name != "" {
		ctx = context.WithValue(ctx, editorNameKey, name)
	}
	return ctx
}

// authFrom returns the caller's Authorization header, or "".
func authFrom(ctx context.Context) string {
	a, _ := ctx.Value(authKey).(string)
	return a
}

// operationID returns the HTTP request id of the call, or a new id.
func operationID(ctx context.Context) string {
	if id, ok := ctx.Value(requestIDKey).(string); ok && id != "" {
		return id
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// clientCapabilities returns what the calling client declared: per request
// on the 2026-07-28 protocol, at initialize before.
func clientCapabilities(ctx context.Context) mcp.ClientCapabilities {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		if info.ClientCapabilities != nil {
			return *info.ClientCapabilities
		}
		return mcp.ClientCapabilities{}
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return s.GetClientCapabilities()
	}
	return mcp.ClientCapabilities{}
}

// modern reports whether the call uses the 2026-07-28 protocol, where the
// server asks the client for input by returning input_required results
// (multi round-trip) rather than sending it requests.
func modern(ctx context.Context) bool {
	return mcp.IsModernProtocol(server.RequestProtocolVersion(ctx))
}

// progressToken returns the call's progress token, or nil.
func progressToken(req mcp.CallToolRequest) mcp.ProgressToken {
	if req.Params.Meta == nil {
		return nil
	}
	return req.Params.Meta.ProgressToken
}

// signState returns an opaque request state binding parts to this gateway
// and the time it was issued; verifyState accepts it back within maxAge.
// A client cannot forge one, so an answer is only taken for the question
// it was asked about.
func (g *Gateway) signState(parts ...string) string {
	payload := strconv.FormatInt(time.Now().Unix(), 10) + "|" + strings.Join(parts, "|")
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + g.mac(payload)
}

func (g *Gateway) mac(payload string) string {
	m := hmac.New(sha256.New, g.secret[:])
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// verifyState returns the parts of a state signed by signState no longer
// than maxAge ago.
func (g *Gateway) verifyState(state string, maxAge time.Duration) ([]string, bool) {
	enc, sig, ok := strings.Cut(state, ".")
	if !ok {
		return nil, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || !hmac.Equal([]byte(sig), []byte(g.mac(string(raw)))) {
		return nil, false
	}
	fields := strings.Split(string(raw), "|")
	ts, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil || time.Since(time.Unix(ts, 0)) > maxAge {
		return nil, false
	}
	return fields[1:], true
}
