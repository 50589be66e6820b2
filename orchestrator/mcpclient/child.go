package mcpclient

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// inheritedEnv names the parent's variables a stdio child gets: what a
// program needs to run (PATH, HOME, locale, temp dir, proxies, CA files),
// never the parent's secrets — API keys, LLM keys and database passwords
// reach a child only when its config's env lists them.
var inheritedEnv = map[string]bool{
	"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "SHELL": true, "TERM": true,
	"LANG": true, "LANGUAGE": true, "TZ": true, "TMPDIR": true, "TEMP": true, "TMP": true,
	"SSL_CERT_FILE": true, "SSL_CERT_DIR": true,
	"HTTP_PROXY": true, "HTTPS_PROXY": true, "NO_PROXY": true,
	"http_proxy": true, "https_proxy": true, "no_proxy": true,
	"XDG_CONFIG_HOME": true, "XDG_CACHE_HOME": true, "XDG_DATA_HOME": true, "XDG_RUNTIME_DIR": true,
	"SYSTEMROOT": true, "WINDIR": true, "COMSPEC": true, "PATHEXT": true, "APPDATA": true, "LOCALAPPDATA": true,
	"USERPROFILE": true, "PROGRAMDATA": true,
}

// childEnv is a stdio child's environment: the inherited variables of
// parent (see inheritedEnv, plus LC_*), then extra (the log settings and the
// server's own env, which win).
func childEnv(parent, extra []string) []string {
	out := make([]string, 0, len(extra)+16)
	for _, kv := range parent {
		name, _, _ := strings.Cut(kv, "=")
		if inheritedEnv[name] || strings.HasPrefix(name, "LC_") {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}

// Bounds of what a child's stderr may put into serve's log.
const (
	childLineRate  = 50  // lines per second, sustained
	childLineBurst = 200 // lines at once (a start-up banner)
	childLineMax   = 4096
	childLastLines = 8 // kept to explain a child that exits at start
	// childDropSummary is how often dropped lines are summed up: one
	// mcp_server_stderr_dropped line per interval while a flood lasts.
	childDropSummary = 10 * time.Second
)

// childStderr turns a stdio child's stderr into log events. A line that is
// already a JSON object (a structured logger, such as talk2tables' own MCP
// servers) is passed to raw as it is; any other line (a banner, a stack
// trace, a plain error) becomes one `mcp_server_stderr` event with the
// server id. Lines beyond a rate of childLineRate per second are dropped and
// counted: one `mcp_server_stderr_dropped` event per childDropSummary while
// a flood lasts (at the first line after the interval, and when the child
// exits), never one per passing line. The last lines are kept to explain a
// child that dies at start.
type childStderr struct {
	raw     io.Writer
	log     *slog.Logger
	limiter *rate.Limiter
	now     func() time.Time // the limiter's clock (tests set it)

	mu      sync.Mutex
	partial []byte
	last    []string
	dropped int
	since   time.Time
}

func newChildStderr(raw io.Writer, log *slog.Logger) *childStderr {
	return &childStderr{raw: raw, log: log, limiter: rate.NewLimiter(childLineRate, childLineBurst), now: time.Now}
}

// Write implements io.Writer for exec.Cmd.Stderr.
func (s *childStderr) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			if len(s.partial) > childLineMax {
				s.line(s.partial[:childLineMax])
				s.partial = s.partial[childLineMax:]
				continue
			}
			return len(p), nil
		}
		s.line(s.partial[:i])
		s.partial = s.partial[i+1:]
	}
}

// line handles one complete line (s.mu held).
func (s *childStderr) line(b []byte) {
	text := strings.TrimRight(string(b), "\r")
	if strings.TrimSpace(text) == "" {
		return
	}
	if len(text) > childLineMax {
		text = text[:childLineMax] + "…"
	}
	s.last = append(s.last, text)
	if len(s.last) > childLastLines {
		s.last = s.last[len(s.last)-childLastLines:]
	}
	now := s.now()
	if !s.limiter.AllowN(now, 1) {
		if s.dropped == 0 {
			s.since = now
		}
		s.dropped++
		s.summarize(now, false)
		return
	}
	s.summarize(now, false)
	if json.Valid([]byte(text)) && strings.HasPrefix(strings.TrimSpace(text), "{") {
		_, _ = io.WriteString(s.raw, text+"\n")
		return
	}
	s.log.Info("mcp server stderr", "event", "mcp_server_stderr", "component", "mcp_client", "line", text)
}

// summarize logs the lines dropped since s.since in one event, once
// childDropSummary has passed since (or at once when force) (s.mu held).
func (s *childStderr) summarize(now time.Time, force bool) {
	if s.dropped == 0 || (!force && now.Sub(s.since) < childDropSummary) {
		return
	}
	s.log.Warn("mcp server stderr lines dropped", "event", "mcp_server_stderr_dropped", "component", "mcp_client",
		"lines", s.dropped, "since", s.since.UTC().Format(time.RFC3339), "seconds", math.Round(now.Sub(s.since).Seconds()))
	s.dropped = 0
}

// flush logs the lines dropped and not yet summed up: the child exited.
func (s *childStderr) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.summarize(s.now(), true)
}

// lastWords returns the last non-JSON line the child wrote, else its last
// line: usually why it exited.
func (s *childStderr) lastWords() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.partial) > 0 {
		s.last = append(s.last, strings.TrimSpace(string(s.partial)))
		s.partial = nil
	}
	for i := len(s.last) - 1; i >= 0; i-- {
		if !strings.HasPrefix(strings.TrimSpace(s.last[i]), "{") {
			return s.last[i]
		}
	}
	if n := len(s.last); n > 0 {
		var m struct {
			Msg   string `json:"msg"`
			Error string `json:"error"`
		}
		if json.Unmarshal([]byte(s.last[n-1]), &m) == nil && m.Msg != "" {
			if m.Error != "" {
				return m.Msg + ": " + m.Error
			}
			return m.Msg
		}
		return s.last[n-1]
	}
	return ""
}
