package mcpserve

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Resource-not-found errors carry data.uri.
//
// MCP (SEP-2164) says a resources/read of an unknown URI fails with an error
// whose data.uri names it. mcp-go v1.2.1 answers with the right code (-32602
// on 2026-07-28, -32002 before) but no data, and offers no hook to add it:
// its error is built after every handler and middleware. The streamable
// HTTP transport's responses are therefore amended here: a resources/read
// request's error response of either code gets data {"uri": <the URI asked
// for>} when it has no data of its own.

// readURI returns the URI of a resources/read request body, or "".
func readURI(body []byte) string {
	if !bytes.Contains(body, []byte(mcp.MethodResourcesRead)) {
		return ""
	}
	var req struct {
		Method string `json:"method"`
		Params struct {
			URI string `json:"uri"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &req) != nil || req.Method != string(mcp.MethodResourcesRead) {
		return ""
	}
	return req.Params.URI
}

// withNotFoundURI buffers a POST body (already limited) so it can be read
// twice and, for a resources/read request, wraps w to amend a not-found
// error with the URI.
func withNotFoundURI(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request) {
	if r.Method != http.MethodPost || r.Body == nil {
		return w, r
	}
	body, err := io.ReadAll(r.Body)
	rest := io.Reader(bytes.NewReader(body))
	if err != nil {
		rest = io.MultiReader(rest, errReader{err}) // the transport reports it, as before
	}
	r.Body = io.NopCloser(rest)
	uri := readURI(body)
	if err != nil || uri == "" {
		return w, r
	}
	return &notFoundWriter{ResponseWriter: w, uri: uri}, r
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// notFoundWriter amends the not-found error of one resources/read response,
// written as one JSON message or as one SSE event.
type notFoundWriter struct {
	http.ResponseWriter
	uri string
}

func (w *notFoundWriter) Write(p []byte) (int, error) {
	out := p
	if bytes.Contains(p, []byte(`"error"`)) {
		out = amendNotFound(p, w.uri)
	}
	if _, err := w.ResponseWriter.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *notFoundWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *notFoundWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// amendNotFound rewrites a JSON message, or the data lines of SSE events,
// holding a resource-not-found error without data.
func amendNotFound(p []byte, uri string) []byte {
	if trimmed := bytes.TrimSpace(p); len(trimmed) > 0 && trimmed[0] == '{' {
		if m, ok := amendMessage(trimmed, uri); ok {
			return append(m, p[len(bytes.TrimRight(p, " \r\n\t")):]...)
		}
		return p
	}
	lines := strings.SplitAfter(string(p), "\n")
	changed := false
	for i, line := range lines {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		if m, ok := amendMessage([]byte(strings.TrimRight(data, "\r\n")), uri); ok {
			lines[i] = "data: " + string(m) + line[len(strings.TrimRight(line, "\r\n")):]
			changed = true
		}
	}
	if !changed {
		return p
	}
	return []byte(strings.Join(lines, ""))
}

// amendMessage adds data.uri to a JSON-RPC error of a not-found code that
// has no data, keeping every other field; false when msg is anything else.
func amendMessage(msg []byte, uri string) ([]byte, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(msg, &top) != nil || top["error"] == nil {
		return nil, false
	}
	var errObj map[string]json.RawMessage
	if json.Unmarshal(top["error"], &errObj) != nil || errObj["data"] != nil {
		return nil, false
	}
	var code int
	var message string
	if json.Unmarshal(errObj["code"], &code) != nil {
		return nil, false
	}
	_ = json.Unmarshal(errObj["message"], &message)
	if code != mcp.RESOURCE_NOT_FOUND && (code != mcp.INVALID_PARAMS || !strings.Contains(message, mcp.ErrResourceNotFound.Error())) {
		return nil, false
	}
	data, err := json.Marshal(map[string]string{"uri": uri})
	if err != nil {
		return nil, false
	}
	errObj["data"] = data
	if top["error"], err = json.Marshal(errObj); err != nil {
		return nil, false
	}
	out, err := json.Marshal(top)
	return out, err == nil
}
