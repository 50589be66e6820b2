package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"talk2tables/config"
)

// A hung server (a stopped child, an HTTP server that accepts requests and
// never answers) must not make every request wait for mcp_call_timeout.
// A ping with its own short timeout (orchestration.ping_timeout) tells a
// hang from a slow call:
//
//   - the ping loop pings every connected server each ping_interval; a ping
//     that does not answer in time makes the server unresponsive at once;
//   - a call that times out is cancelled (mcp-go sends
//     notifications/cancelled) and the server pinged: if the ping answers,
//     the call was merely slow (a SQL statement becomes a repairable
//     TIMEOUT) and the server stays; if not, it is unresponsive;
//   - while unresponsive, calls to it fail at once (MCPConnectionError with
//     PhaseUnresponsive: HTTP 503 with Retry-After, or a stale cached
//     result where configured), the calls in flight are aborted, and it is
//     probed every unresponsiveProbe: an answer makes it connected again;
//     still unresponsive after its call timeout, its session is dropped (a
//     stdio child killed) and reconnected with backoff (a new child).

// unresponsiveProbe is the pause between the pings of an unresponsive server.
const unresponsiveProbe = 500 * time.Millisecond

// errUnresponsive is the cancellation cause of the calls in flight when
// their server turns unresponsive.
var errUnresponsive = errors.New("the server stopped answering")

// track registers the cancel function of a call in flight, so the call ends
// at once when its server turns unresponsive; the returned function
// unregisters it.
func (c *Conn) track(abort context.CancelCauseFunc) func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inflight == nil {
		c.inflight = map[uint64]context.CancelCauseFunc{}
	}
	c.inflightSeq++
	id := c.inflightSeq
	c.inflight[id] = abort
	return func() {
		c.mu.Lock()
		delete(c.inflight, id)
		c.mu.Unlock()
	}
}

// DownError is the error of a call to a server that is not connected:
// PhaseUnresponsive with a Retry-After while it is unresponsive, else
// PhaseInitial (never connected) or PhaseLost, with its last error.
func (c *Conn) DownError() error {
	c.mu.Lock()
	err, state, connected := c.lastErr, c.state, c.connectedAt
	c.mu.Unlock()
	if err == nil {
		err = errors.New("not connected")
	}
	switch {
	case state == StateUnresponsive:
		return &MCPConnectionError{Server: c.id, Phase: PhaseUnresponsive, Err: err, RetryAfter: c.retryAfter()}
	case connected == 0:
		return &MCPConnectionError{Server: c.id, Phase: PhaseInitial, Err: err}
	}
	return &MCPConnectionError{Server: c.id, Phase: PhaseLost, Err: err}
}

// retryAfter is how long a client should wait before trying an
// unresponsive server again: its next probe has answered by then.
func (c *Conn) retryAfter() time.Duration {
	d := unresponsiveProbe + c.p.cfg.PingTimeout(c.cfg)
	return time.Duration(math.Ceil(d.Seconds())) * time.Second
}

// timedOut decides about a call on cl that did not answer within its
// timeout. A ping timing out means the server hangs; any other call is
// followed by a ping of its own: an answer means the call was only slow
// (the server stays, the caller gets te), none means the server hangs.
func (c *Conn) timedOut(cl *client.Client, te *CallTimeoutError) error {
	if te.What != "ping" {
		err := c.ping(cl)
		if err == nil {
			c.log.Warn("mcp call timed out; the server answers pings, so it stays connected",
				"event", "mcp_call_timeout", "component", "mcp_client", "method", te.What, "timeout", te.Timeout.String())
			return te
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			c.fail(cl, err) // the session broke meanwhile
			return &MCPConnectionError{Server: c.id, Phase: PhaseLost, Err: err}
		}
	}
	c.markUnresponsive(cl, te)
	return c.DownError()
}

// ping pings the server on cl under ping_timeout, outside call (no span,
// no tracking: it is the liveness check itself).
func (c *Conn) ping(cl *client.Client) error {
	bg, stop := c.p.background()
	defer stop()
	ctx, cancel := context.WithTimeout(bg, c.p.cfg.PingTimeout(c.cfg))
	defer cancel()
	err := cl.Ping(ctx)
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("ping: no answer within ping_timeout (%s): %w", c.p.cfg.PingTimeout(c.cfg), context.DeadlineExceeded)
	}
	return err
}

// markUnresponsive makes the server unresponsive if cl is still its
// connected client: the calls in flight end at once, new calls fail at
// once, and a watcher probes it until it answers or is restarted.
func (c *Conn) markUnresponsive(cl *client.Client, cause error) {
	c.mu.Lock()
	if c.client != cl || c.state != StateConnected || c.p.closed() {
		c.mu.Unlock()
		return
	}
	c.state = StateUnresponsive
	c.lastErr = cause
	c.unresponsiveSince = time.Now()
	aborts := make([]context.CancelCauseFunc, 0, len(c.inflight))
	for _, a := range c.inflight {
		aborts = append(aborts, a)
	}
	c.mu.Unlock()
	for _, a := range aborts {
		a(errUnresponsive)
	}
	c.log.Error("mcp server unresponsive", "event", "mcp_server_unresponsive", "component", "mcp_client",
		"error", cause.Error(), "aborted_calls", len(aborts))
	c.p.notifyChange(Change{Server: c.id, Kind: ChangeState})
	c.p.wg.Go(func() { c.watchUnresponsive(cl) })
}

// watchUnresponsive probes the unresponsive server on cl until it answers
// (connected again), its session breaks (reconnect), or it stays silent for
// its call timeout: then the session is dropped — a stdio child is killed —
// and reconnected with backoff.
func (c *Conn) watchUnresponsive(cl *client.Client) {
	restartAfter := c.p.cfg.CallTimeout(c.cfg)
	t := time.NewTimer(unresponsiveProbe)
	defer t.Stop()
	for {
		select {
		case <-c.p.done:
			return
		case <-t.C:
		}
		c.mu.Lock()
		still, since := c.client == cl && c.state == StateUnresponsive, c.unresponsiveSince
		c.mu.Unlock()
		if !still {
			return
		}
		err := c.ping(cl)
		switch {
		case err == nil:
			c.markResponsive(cl)
			return
		case !errors.Is(err, context.DeadlineExceeded):
			c.fail(cl, fmt.Errorf("while unresponsive: %w", err))
			return
		case time.Since(since) >= restartAfter:
			c.restartHung(cl, time.Since(since))
			return
		}
		t.Reset(unresponsiveProbe)
	}
}

// markResponsive makes an unresponsive server connected again.
func (c *Conn) markResponsive(cl *client.Client) {
	c.mu.Lock()
	if c.client != cl || c.state != StateUnresponsive {
		c.mu.Unlock()
		return
	}
	d := time.Since(c.unresponsiveSince)
	c.state = StateConnected
	c.lastErr = nil
	c.lastContact = time.Now()
	c.mu.Unlock()
	c.log.Info("mcp server answers again", "event", "mcp_server_responsive", "component", "mcp_client",
		"unresponsive_ms", d.Milliseconds())
	c.p.notifyChange(Change{Server: c.id, Kind: ChangeState})
}

// restartHung gives up on a server that stayed unresponsive for d: a stdio
// child is killed at once (a stopped process ignores SIGTERM and the close
// of its stdin), then the session is failed and reconnected with backoff.
func (c *Conn) restartHung(cl *client.Client, d time.Duration) {
	c.mu.Lock()
	cmd := c.cmd
	c.mu.Unlock()
	if cmd != nil && cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
	c.log.Error("mcp server restarted after staying unresponsive", "event", "mcp_server_restarted",
		"component", "mcp_client", "unresponsive_ms", d.Milliseconds(), "transport", c.cfg.Transport)
	c.fail(cl, fmt.Errorf("unresponsive for %s; the session was dropped and is being reconnected", d.Round(time.Millisecond)))
}

// dbFault is a database failure an executor reported (DATABASE_ERROR): the
// database cannot be reached or is damaged. It holds until a statement
// runs on that executor again: any question's, or the failed one re-tried
// by the ping loop and after the executor says its resources changed.
type dbFault struct {
	message string
	sql     string // the statement that failed, re-tried to see the database back
	since   time.Time
	// down: the liveness probe (a trivial statement) failed too, so the
	// database runs nothing at all; statements fail at once (Down) until a
	// probe answers.
	down bool
}

// SetFault records a database failure of the executor: the statement sql
// failed with message. The first failure is logged at ERROR, and only it:
// a database that stays unavailable under load is one line, not one per
// request.
func (c *Conn) SetFault(sql, message string) {
	c.mu.Lock()
	first := c.fault == nil
	again := false
	if first {
		now := time.Now()
		c.fault = &dbFault{message: message, sql: sql, since: now}
		again = now.Sub(c.faultLogged) < faultRelogAfter
		if !again {
			c.faultLogged = now
		}
	} else {
		c.fault.message = message
	}
	c.mu.Unlock()
	if first {
		if again {
			// a statement ran between two failures while the database
			// stopped: the same outage, already said at ERROR
			c.log.Warn("executor's database failed again", "event", "database_error", "component", "orchestrator",
				"error", message)
		} else {
			c.log.Error("executor's database failed", "event", "database_error", "component", "orchestrator",
				"error", message)
		}
		c.p.notifyChange(Change{Server: c.id, Kind: ChangeState})
	}
}

// faultRelogAfter is how long after a database failure logged at ERROR a
// new one is logged at ERROR again rather than WARN.
const faultRelogAfter = time.Minute

// SetDown records that the liveness probe found the database running
// nothing (message): from now on statements fail at once with the fault
// (Down) instead of each waiting on the database, until a probe answers.
func (c *Conn) SetDown(probeSQL, message string) {
	c.SetFault(probeSQL, message)
	c.mu.Lock()
	if c.fault != nil {
		c.fault.down = true
	}
	c.mu.Unlock()
}

// SetReachable records that the liveness probe ran: a fault, if any, is no
// longer one of the whole database (its failed statement is re-tried
// before it is cleared).
func (c *Conn) SetReachable() {
	c.mu.Lock()
	if c.fault != nil {
		c.fault.down = false
	}
	c.mu.Unlock()
}

// Down returns the message of the executor's fault when the liveness probe
// found its database running nothing: a statement would fail the same way.
func (c *Conn) Down() (message string, down bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fault == nil || !c.fault.down {
		return "", false
	}
	return c.fault.message, true
}

// ClearFault forgets the executor's database failure: a statement ran.
func (c *Conn) ClearFault() {
	c.mu.Lock()
	f := c.fault
	c.fault = nil
	c.sqlOK = time.Now()
	c.mu.Unlock()
	if f != nil {
		c.log.Info("executor's database answers again", "event", "database_recovered", "component", "orchestrator",
			"faulty_ms", time.Since(f.since).Milliseconds())
		c.p.notifyChange(Change{Server: c.id, Kind: ChangeState})
	}
}

// SQLIdle is how long ago a statement last ran on the executor (since the
// session began when none has).
func (c *Conn) SQLIdle() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Since(c.sqlOK)
}

// FaultySQL returns the statement that failed with a database fault, or "".
func (c *Conn) FaultySQL() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fault == nil {
		return ""
	}
	return c.fault.sql
}

// probeDatabase asks the layer above to check the executor's database
// (Hooks.ProbeDatabase).
func (p *Pool) probeDatabase(ctx context.Context, c *Conn) {
	if !c.cfg.HasCapability(config.CapExecuteQuery) {
		return
	}
	p.hooks.ProbeDatabase(ctx, c)
}

// Health summarizes the servers' states.
type Health struct {
	Status  string            `json:"status"` // healthy | degraded
	Servers map[string]string `json:"servers"`
}

// HealthDatabaseError is the /health state of a connected executor whose
// database is damaged or unreadable.
const HealthDatabaseError = "database_error"

// Health is "degraded" when a required server (Config.Required) is not
// connected — down, reconnecting or unresponsive — or its database is
// broken, or when no executor at all is usable.
func (p *Pool) Health() Health {
	h := Health{Status: "healthy", Servers: map[string]string{}}
	executorUp, executors := false, 0
	for _, c := range p.ordered {
		c.mu.Lock()
		st, faulty := c.state, c.fault != nil
		c.mu.Unlock()
		up := st == StateConnected && !faulty
		if st == StateConnected && faulty {
			st = HealthDatabaseError
		}
		h.Servers[c.id] = st
		if c.cfg.HasCapability(config.CapExecuteQuery) {
			executors++
			executorUp = executorUp || up
		}
		if !up && p.required(c) {
			h.Status = "degraded"
		}
	}
	if executors > 0 && !executorUp {
		h.Status = "degraded"
	}
	return h
}
