package mcpclient

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"talk2tables/resultlimit"
	"talk2tables/telemetry"
)

// How a stdio child is stopped when its session closes: stdin is closed,
// then SIGTERM after stdioGrace, then SIGKILL after as long again (as
// mcp-go's own stdio transport does).
const stdioGrace = 2 * time.Second

// tooLargeMarker starts the message of the JSON-RPC error that stands in
// for a stdio message over the bound; call turns it into ErrResponseTooLarge.
const tooLargeMarker = "talk2tables: MCP message over the size bound"

// startStdio starts a stdio MCP server and returns its transport and
// process. It does what mcp-go's stdio transport does, except that the
// child's stdout is read through boundedLines: a message (one line) longer
// than max bytes is never held whole — it is replaced by a JSON-RPC error
// answering the same request, so the call fails with RESOURCE_LIMIT and the
// server stays up. The child lives until the transport closes or the
// orchestrator does.
func (c *Conn) startStdio(sctx context.Context, env []string, max int64) (*transport.Stdio, *exec.Cmd, error) {
	cmd := exec.CommandContext(sctx, c.cfg.Command, c.cfg.Args...)
	cmd.Env = childEnv(os.Environ(), append(traceEnv(os.Environ()), env...))
	cmd.Dir = c.cfg.Cwd
	sink := newChildStderr(c.p.childStderr, c.log)
	c.mu.Lock()
	c.stderr = sink
	c.mu.Unlock()
	cmd.Stderr = sink
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	// Our own pipe rather than StdoutPipe: Wait must not close the reader
	// while the transport still reads what the child wrote before exiting.
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.Stdout = pw
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return nil, nil, fmt.Errorf("start %s: %w", c.cfg.Command, err)
	}
	pw.Close() // the child holds the write end
	exited := make(chan struct{})
	c.p.wg.Go(func() {
		_ = cmd.Wait()
		sink.flush()
		close(exited)
	})
	in := &childStdin{WriteCloser: stdin, cmd: cmd, exited: exited, stdout: pr}
	return transport.NewIO(newBoundedLines(pr, max), in, nil), cmd, nil
}

// childStdin is the child's stdin; closing it stops the child.
type childStdin struct {
	io.WriteCloser
	cmd    *exec.Cmd
	exited <-chan struct{}
	stdout io.Closer
	once   sync.Once
}

// Close closes stdin, which tells a stdio server to exit, and makes sure
// it does: SIGTERM after stdioGrace, SIGKILL after as long again.
func (s *childStdin) Close() error {
	var err error
	s.once.Do(func() {
		err = s.WriteCloser.Close()
		for _, sig := range []os.Signal{syscall.SIGTERM, os.Kill} {
			select {
			case <-s.exited:
				s.stdout.Close()
				return
			case <-time.After(stdioGrace):
				_ = s.cmd.Process.Signal(sig)
			}
		}
		<-s.exited
		s.stdout.Close()
	})
	return err
}

// boundedLines passes newline-delimited JSON-RPC messages through, except
// that a message longer than max bytes is dropped while it is read: a
// response is replaced by a JSON-RPC error with the same id, anything else
// (a notification) disappears.
type boundedLines struct {
	r   *bufio.Reader
	max int64
	out []byte // the line being handed out
	err error  // the read error after out
}

func newBoundedLines(r io.Reader, max int64) *boundedLines {
	return &boundedLines{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

func (b *boundedLines) Read(p []byte) (int, error) {
	for len(b.out) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		b.out, b.err = b.line()
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

// line reads the next message, newline included, or its stand-in.
func (b *boundedLines) line() ([]byte, error) {
	var line []byte
	for {
		frag, err := b.r.ReadSlice('\n')
		if int64(len(line)+len(frag)) > b.max {
			head := append(line, frag[:min(len(frag), 256)]...)
			for errors.Is(err, bufio.ErrBufferFull) { // drop the rest of the message
				_, err = b.r.ReadSlice('\n')
			}
			return b.standIn(head), err
		}
		line = append(line, frag...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// idPattern finds a JSON-RPC message's id near its start.
var idPattern = regexp.MustCompile(`"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?[0-9]+)`)

// standIn is the error response for an oversize message whose first bytes
// are head (nil for a message without an id).
func (b *boundedLines) standIn(head []byte) []byte {
	m := idPattern.FindSubmatch(head)
	if m == nil {
		return nil
	}
	msg := fmt.Sprintf("%s (%s)", tooLargeMarker, resultlimit.Size(int(b.max)))
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":%q}}`+"\n", m[1], msg)
}

// isTooLarge reports whether err is the stand-in error of an oversize
// stdio message.
func isTooLarge(err error) bool {
	return err != nil && strings.Contains(err.Error(), tooLargeMarker)
}

// traceEnv are the OpenTelemetry variables of parent a stdio child gets
// while tracing is on, so talk2tables' own MCP servers export their spans to
// the same collector. The OTLP headers are left out (they may hold the
// collector's credentials): list them in the server's env to pass them.
func traceEnv(parent []string) []string {
	if !telemetry.Enabled() {
		return nil
	}
	var out []string
	for _, kv := range parent {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "OTEL_") && !strings.HasSuffix(name, "_HEADERS") {
			out = append(out, kv)
		}
	}
	return out
}

// stdioTransport starts the child of a stdio server config and returns the
// client transport and a function giving its process.
func (c *Conn) stdioTransport(sctx context.Context, env []string) (transport.Interface, func() *exec.Cmd, error) {
	t, cmd, err := c.startStdio(sctx, env, c.p.cfg.MaxMessageBytes())
	if err != nil {
		return nil, nil, err
	}
	return t, func() *exec.Cmd { return cmd }, nil
}
