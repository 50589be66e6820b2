package mcpserve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
)

// readBody reads a POST body of at most max bytes whole, whatever its
// framing: a chunked body over the bound is a *http.MaxBytesError as one
// with a Content-Length is, so both are answered 413.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	return io.ReadAll(http.MaxBytesReader(w, r.Body, max))
}

// invalidMessage is why a POSTed message is not one JSON-RPC message the
// transport should see, with the id to answer with; nil when it is
// (including one that is not JSON at all: the transport answers that with
// a parse error). MCP sends one message per POST, ids are strings or
// numbers, and a request names its method.
type invalidMessage struct {
	id  mcp.RequestId
	msg string
}

func checkMessage(body []byte) *invalidMessage {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return &invalidMessage{id: mcp.NewRequestId(nil),
			msg: "batch requests (a JSON array of messages) are not supported: send one JSON-RPC message per POST"}
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(trimmed, &m) != nil {
		return nil
	}
	id := mcp.NewRequestId(nil)
	if len(m.ID) > 0 && !bytes.Equal(m.ID, []byte("null")) {
		var v any
		if json.Unmarshal(m.ID, &v) != nil {
			return nil
		}
		switch x := v.(type) {
		case string:
			id = mcp.NewRequestId(x)
		case float64:
			id = mcp.NewRequestId(x)
		default:
			return &invalidMessage{id: id,
				msg: fmt.Sprintf("the id must be a string or a number, not %s", jsonKind(v))}
		}
	}
	switch {
	case m.Method != nil && *m.Method == "" && len(m.ID) > 0:
		return &invalidMessage{id: id, msg: `"method" must name the method to call; it is empty`}
	case m.Method == nil && len(m.Result) == 0 && len(m.Error) == 0:
		return &invalidMessage{id: id, msg: `the message has no "method" (a request or notification) and no "result" or "error" (a response)`}
	}
	return nil
}

// jsonKind names the JSON type of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case bool:
		return "a boolean"
	}
	return "null"
}

// answerInvalid answers a message checkMessage refused: HTTP 400 with a
// JSON-RPC Invalid Request error carrying its id.
func answerInvalid(w http.ResponseWriter, bad *invalidMessage) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(mcp.NewJSONRPCError(bad.id, mcp.INVALID_REQUEST, bad.msg, nil))
}

// isTooLarge reports whether err is the body bound being hit.
func isTooLarge(err error) (*http.MaxBytesError, bool) {
	var mbe *http.MaxBytesError
	return mbe, errors.As(err, &mbe)
}
