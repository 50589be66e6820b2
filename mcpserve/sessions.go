package mcpserve

import (
	"crypto/rand"
	"errors"
	"strings"
	"sync"
)

// sessionIDs is the streamable HTTP transport's session id manager for
// protocol revisions before 2026-07-28 (which have sessions): it knows the
// sessions it issued, so a request naming a session that was terminated
// (DELETE, or forgotten after the idle TTL) or never existed gets 404 Not
// Found, as the specification requires, and the client starts a new one.
// mcp-go's default checks only the id's format; its stateful manager keeps
// every terminated id forever.
type sessionIDs struct {
	mu   sync.Mutex
	live map[string]struct{}
}

// sessionPrefix starts every session id, as mcp-go's own managers do.
const sessionPrefix = "mcp-session-"

var errUnknownSession = errors.New("unknown session: it was terminated, expired or never existed; initialize a new one")

func newSessionIDs() *sessionIDs { return &sessionIDs{live: map[string]struct{}{}} }

// Generate issues a new session id.
func (m *sessionIDs) Generate() string {
	id := sessionPrefix + rand.Text()
	m.mu.Lock()
	m.live[id] = struct{}{}
	m.mu.Unlock()
	return id
}

// Validate reports an error (the transport answers 404) for an id this
// server has not issued or has since terminated.
func (m *sessionIDs) Validate(id string) (isTerminated bool, err error) {
	if !strings.HasPrefix(id, sessionPrefix) {
		return false, errUnknownSession
	}
	m.mu.Lock()
	_, ok := m.live[id]
	m.mu.Unlock()
	if !ok {
		return false, errUnknownSession
	}
	return false, nil
}

// Terminate forgets the id: a client's DELETE, or the idle sweeper.
func (m *sessionIDs) Terminate(id string) (isNotAllowed bool, err error) {
	m.mu.Lock()
	delete(m.live, id)
	m.mu.Unlock()
	return false, nil
}
