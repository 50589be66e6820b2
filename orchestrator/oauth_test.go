package orchestrator

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"talk2tables/config"
	"talk2tables/internal/testfixture"
	"talk2tables/mcpserve"
)

// authServerStub is a test OAuth 2.1 authorization server (client
// credentials only) in front of a real database MCP server that demands
// its tokens, answering 401 with protected-resource metadata (RFC 9728).
type authServerStub struct {
	url       string
	issued    atomic.Int64
	expiresIn int // seconds, for every token
	mu        sync.Mutex
	valid     map[string]bool
	forms     []string // token request bodies (without the secret)
}

func newAuthServerStub(tb testing.TB, f *fixture, expiresIn int) *authServerStub {
	tb.Helper()
	a := &authServerStub{valid: map[string]bool{}, expiresIn: expiresIn}
	mcpHandler, err := mcpserve.Handler(f.dbServer(tb), mcpserve.StreamableHTTP)
	if err != nil {
		tb.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSONBody(w, map[string]any{"resource": a.url + "/mcp", "authorization_servers": []string{a.url + "/as"}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server/as", func(w http.ResponseWriter, r *http.Request) {
		writeJSONBody(w, map[string]any{"issuer": a.url + "/as", "token_endpoint": a.url + "/as/token",
			"grant_types_supported":                 []string{"client_credentials"},
			"token_endpoint_auth_methods_supported": []string{"client_secret_basic"}})
	})
	mux.HandleFunc("/as/token", func(w http.ResponseWriter, r *http.Request) {
		id, secret, ok := r.BasicAuth()
		_ = r.ParseForm()
		if !ok || id != "talk2tables" || secret != "client-s3cret" || r.PostForm.Get("grant_type") != "client_credentials" {
			w.WriteHeader(http.StatusUnauthorized)
			writeJSONBody(w, map[string]any{"error": "invalid_client"})
			return
		}
		n := a.issued.Add(1)
		tok := fmt.Sprintf("access-%d", n)
		a.mu.Lock()
		a.valid[tok] = true
		a.forms = append(a.forms, r.PostForm.Encode())
		a.mu.Unlock()
		writeJSONBody(w, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": a.expiresIn})
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		a.mu.Lock()
		ok := a.valid[tok]
		a.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.url+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(mux)
	a.url = srv.URL
	tb.Cleanup(func() { mcpserve.CloseSessions(mcpHandler); srv.Close() })
	return a
}

func writeJSONBody(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func oauthConfig(url string, refreshBefore time.Duration) *config.Config {
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.MCPServers = map[string]config.ServerConfig{
		"database_mcp": {Name: "Remote database", Transport: config.TransportStreamableHTTP, URL: url + "/mcp", Priority: 10,
			Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources},
			OAuth: &config.OAuthClientConfig{ClientID: "talk2tables", ClientSecretEnv: "T2T_TEST_OAUTH_SECRET",
				Scopes: []string{"mcp:read"}, RefreshBefore: refreshBefore}},
	}
	return cfg
}

func TestOAuthClientCredentials(t *testing.T) {
	f := newFixture(t)
	t.Setenv("T2T_TEST_OAUTH_SECRET", "client-s3cret")
	logs := &testfixture.LogBuffer{}

	t.Run("token discovered, cached and used", func(t *testing.T) {
		as := newAuthServerStub(t, f, 3600)
		o, err := New(context.Background(), oauthConfig(as.url, 0), newTestJSONLogger(logs))
		if err != nil {
			t.Fatalf("New with oauth: %v", err)
		}
		defer o.Close()
		for i := 0; i < 3; i++ {
			if _, err := o.ExecuteSQL(context.Background(), "SELECT COUNT(*) FROM orders", 5, ""); err != nil {
				t.Fatalf("ExecuteSQL: %v", err)
			}
		}
		if n := as.issued.Load(); n != 1 {
			t.Errorf("tokens issued = %d, want 1 (cached while valid)", n)
		}
		as.mu.Lock()
		form := as.forms[0]
		as.mu.Unlock()
		for _, want := range []string{"grant_type=client_credentials", "scope=mcp%3Aread", "resource=http"} {
			if !strings.Contains(form, want) {
				t.Errorf("token request %q lacks %s", form, want)
			}
		}
	})

	t.Run("refreshed before expiry", func(t *testing.T) {
		// Tokens live 60 s and are replaced 90 s before they expire: every
		// use asks for a fresh one, before the server could refuse it.
		as := newAuthServerStub(t, f, 60)
		o, err := New(context.Background(), oauthConfig(as.url, 90*time.Second), newTestJSONLogger(logs))
		if err != nil {
			t.Fatal(err)
		}
		defer o.Close()
		before := as.issued.Load()
		if _, err := o.ExecuteSQL(context.Background(), "SELECT 1", 1, ""); err != nil {
			t.Fatal(err)
		}
		if as.issued.Load() <= before {
			t.Errorf("tokens issued = %d after a call, want a refresh (token within refresh_before of expiry)", as.issued.Load())
		}
	})

	t.Run("wrong secret is a clear error", func(t *testing.T) {
		as := newAuthServerStub(t, f, 3600)
		t.Setenv("T2T_TEST_OAUTH_SECRET", "wrong")
		_, err := New(context.Background(), oauthConfig(as.url, 0), newTestJSONLogger(logs))
		if err == nil || !strings.Contains(err.Error(), "oauth") || !strings.Contains(err.Error(), "invalid_client") {
			t.Errorf("New = %v, want an oauth error naming invalid_client", err)
		}
	})

	t.Run("missing secret variable", func(t *testing.T) {
		as := newAuthServerStub(t, f, 3600)
		t.Setenv("T2T_TEST_OAUTH_SECRET", "")
		_, err := New(context.Background(), oauthConfig(as.url, 0), newTestJSONLogger(logs))
		if err == nil || !strings.Contains(err.Error(), "T2T_TEST_OAUTH_SECRET is empty") {
			t.Errorf("New = %v, want the empty secret variable named", err)
		}
	})
	for _, secret := range []string{"client-s3cret", "access-1"} {
		if logs.Contains(secret) {
			t.Errorf("logs contain %q", secret)
		}
	}
}

// newTestJSONLogger logs JSON lines at debug level into w.
func newTestJSONLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
