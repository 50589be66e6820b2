package metadatamcp

import (
	"context"
	"log/slog"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// subscriptions remembers which sessions asked for updates of which URIs:
// through resources/subscribe on protocol versions before 2026-07-28, and
// through the filter of a subscriptions/listen stream on later ones. mcp-go's
// built-in sessions do not track this themselves.
type subscriptions struct {
	mu       sync.Mutex
	sessions map[server.ClientSession]map[string]bool
}

func (s *subscriptions) register(h *server.Hooks) {
	h.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		s.add(server.ClientSessionFromContext(ctx), req.Params.URI)
	})
	h.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		s.remove(server.ClientSessionFromContext(ctx), req.Params.URI)
	})
	h.AddBeforeSubscriptionsListen(func(ctx context.Context, _ any, req *mcp.SubscriptionsListenRequest) {
		session := server.ClientSessionFromContext(ctx)
		for _, uri := range req.Params.Notifications.ResourceSubscriptions {
			s.add(session, uri)
		}
	})
	h.AddAfterSubscriptionsListen(func(ctx context.Context, _ any, _ *mcp.SubscriptionsListenRequest, _ *mcp.SubscriptionsListenResult) {
		s.drop(server.ClientSessionFromContext(ctx))
	})
	h.AddOnUnregisterSession(func(_ context.Context, session server.ClientSession) {
		s.drop(session)
	})
}

func (s *subscriptions) add(session server.ClientSession, uri string) {
	if session == nil || uri == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sessions[session] == nil {
		s.sessions[session] = map[string]bool{}
	}
	s.sessions[session][uri] = true
}

func (s *subscriptions) remove(session server.ClientSession, uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions[session], uri)
}

func (s *subscriptions) drop(session server.ClientSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, session)
}

// notifyUpdated sends notifications/resources/updated for uri to every
// session subscribed to it, without blocking on a slow client.
func (s *subscriptions) notifyUpdated(logger *slog.Logger, uri string) {
	s.mu.Lock()
	var targets []server.ClientSession
	for session, uris := range s.sessions {
		if uris[uri] {
			targets = append(targets, session)
		}
	}
	s.mu.Unlock()
	n := mcp.JSONRPCNotification{
		JSONRPC: mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{
			Method: mcp.MethodNotificationResourceUpdated,
			Params: mcp.NotificationParams{AdditionalFields: map[string]any{"uri": uri}},
		},
	}
	for _, session := range targets {
		// A streamable HTTP session must switch its response to an event stream first.
		if h, ok := session.(server.SessionWithStreamableHTTPConfig); ok {
			h.UpgradeToSSEWhenReceiveNotification()
		}
		if !trySend(session, n) {
			logger.Warn("resource update notification dropped: client gone or not reading", "event", "notification_dropped",
				"session_id", session.SessionID(), "uri", uri)
		}
	}
}

// trySend delivers without blocking; a session closed under us reports false
// instead of panicking on its closed channel.
func trySend(session server.ClientSession, n mcp.JSONRPCNotification) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	select {
	case session.NotificationChannel() <- n:
		return true
	default:
		return false
	}
}
