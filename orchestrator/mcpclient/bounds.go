package mcpclient

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"talk2tables/resultlimit"
)

// ErrResponseTooLarge is returned (wrapped) when an HTTP MCP server sends a
// message longer than the orchestration's bound: the call fails with
// RESOURCE_LIMIT, the server stays connected.
var ErrResponseTooLarge = errors.New("MCP server response too large")

// boundedHTTPClient is the HTTP client of the SSE and streamable HTTP
// transports: every response body is read through a reader that fails, with
// ErrResponseTooLarge, on a line (a JSON body, an SSE data line) longer than
// max bytes, so a huge answer is refused while it is read instead of after
// it filled memory. It has no overall timeout: calls are bounded by their
// contexts, and the listening stream lives long.
func boundedHTTPClient(max int64) *http.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		resp.Body = &lineLimitReader{r: resp.Body, max: max}
		return resp, nil
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// lineLimitReader fails once a line grows past max bytes.
type lineLimitReader struct {
	r    io.ReadCloser
	max  int64
	line int64 // bytes since the last newline
}

func (l *lineLimitReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	chunk := p[:n]
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			l.line += int64(len(chunk))
			break
		}
		l.line += int64(i)
		if l.line > l.max {
			break
		}
		l.line = 0
		chunk = chunk[i+1:]
	}
	if l.line > l.max {
		return 0, fmt.Errorf("%w: a message of more than %s", ErrResponseTooLarge, resultlimit.Size(int(l.max)))
	}
	return n, err
}

func (l *lineLimitReader) Close() error { return l.r.Close() }
