package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"talk2tables/config"
)

// defaultRefreshBefore is OAuthClientConfig.RefreshBefore's default.
const defaultRefreshBefore = 60 * time.Second

// oauthSource gets and caches the client-credentials token of one remote
// MCP server. Discovery runs on first use: the server's 401 names its
// protected-resource metadata (RFC 9728), which names the authorization
// server, whose metadata (RFC 8414) names the token endpoint.
type oauthSource struct {
	serverID  string
	serverURL string
	cfg       config.OAuthClientConfig
	httpc     *http.Client
	log       *slog.Logger

	mu   sync.Mutex
	ts   oauth2.TokenSource // nil until discovered
	open bool               // the server asked for no token
}

func newOAuthSource(id string, s config.ServerConfig, log *slog.Logger) *oauthSource {
	return &oauthSource{serverID: id, serverURL: s.URL, cfg: *s.OAuth, log: log,
		httpc: &http.Client{Timeout: 15 * time.Second}}
}

// token returns the current access token ("" when the server needs none),
// discovering the token endpoint first if needed. The token is never
// logged.
func (s *oauthSource) token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open {
		return "", nil
	}
	if s.ts == nil {
		ts, open, err := s.discover(ctx)
		if err != nil {
			return "", fmt.Errorf("oauth for %q: %w", s.serverID, err)
		}
		if open {
			s.open = true
			s.log.Info("server asks for no token; oauth not used", "event", "oauth_not_required", "component", "mcp_client")
			return "", nil
		}
		s.ts = ts
	}
	tok, err := s.ts.Token()
	if err != nil {
		return "", fmt.Errorf("oauth for %q: get token: %w", s.serverID, err)
	}
	return tok.AccessToken, nil
}

// discover finds the token endpoint and returns a token source that
// refreshes RefreshBefore ahead of expiry.
func (s *oauthSource) discover(ctx context.Context) (oauth2.TokenSource, bool, error) {
	secret := os.Getenv(s.cfg.ClientSecretEnv)
	if secret == "" {
		return nil, false, fmt.Errorf("the client secret variable %s is empty; export it", s.cfg.ClientSecretEnv)
	}
	prmURL, open, err := s.probe(ctx)
	if err != nil || open {
		return nil, open, err
	}
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	if err := s.getJSON(ctx, prmURL, &prm); err != nil {
		return nil, false, fmt.Errorf("protected-resource metadata: %w", err)
	}
	if len(prm.AuthorizationServers) == 0 {
		return nil, false, fmt.Errorf("protected-resource metadata at %s names no authorization server", prmURL)
	}
	meta, err := s.authServerMetadata(ctx, prm.AuthorizationServers[0])
	if err != nil {
		return nil, false, err
	}
	if len(meta.GrantTypes) > 0 && !slices.Contains(meta.GrantTypes, "client_credentials") {
		return nil, false, fmt.Errorf("authorization server %s does not offer the client_credentials grant (offers %s)",
			prm.AuthorizationServers[0], strings.Join(meta.GrantTypes, ", "))
	}
	cc := clientcredentials.Config{ClientID: s.cfg.ClientID, ClientSecret: secret, TokenURL: meta.TokenEndpoint,
		Scopes: s.cfg.Scopes, AuthStyle: authStyle(meta.AuthMethods)}
	if prm.Resource != "" {
		cc.EndpointParams = url.Values{"resource": {prm.Resource}}
	}
	before := s.cfg.RefreshBefore
	if before == 0 {
		before = defaultRefreshBefore
	}
	bg := context.WithValue(context.Background(), oauth2.HTTPClient, s.httpc)
	s.log.Info("oauth token endpoint discovered", "event", "oauth_discovered", "component", "mcp_client",
		"token_endpoint", meta.TokenEndpoint)
	return oauth2.ReuseTokenSourceWithExpiry(nil, cc.TokenSource(bg), before), false, nil
}

// probe sends a ping to the server: a 401 gives the protected-resource
// metadata URL (from WWW-Authenticate, else the well-known location);
// anything else means the server wants no token.
func (s *oauthSource) probe(ctx context.Context) (prmURL string, open bool, err error) {
	body := []byte(`{"jsonrpc":"2.0","id":0,"method":"ping"}`)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.serverURL, bytes.NewReader(body))
	if err != nil {
		return "", false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := s.httpc.Do(req)
	if err != nil {
		return "", false, fmt.Errorf("probe %s: %w", s.serverURL, err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return "", true, nil
	}
	if u := authParam(resp.Header.Get("WWW-Authenticate"), "resource_metadata"); u != "" {
		return u, false, nil
	}
	su, err := url.Parse(s.serverURL)
	if err != nil {
		return "", false, err
	}
	return su.Scheme + "://" + su.Host + "/.well-known/oauth-protected-resource" + strings.TrimSuffix(su.Path, "/"), false, nil
}

// asMetadata is the part of RFC 8414 metadata used here.
type asMetadata struct {
	TokenEndpoint string   `json:"token_endpoint"`
	GrantTypes    []string `json:"grant_types_supported"`
	AuthMethods   []string `json:"token_endpoint_auth_methods_supported"`
}

// authServerMetadata reads the authorization server's metadata from the
// RFC 8414 and OpenID locations, in that order.
func (s *oauthSource) authServerMetadata(ctx context.Context, issuer string) (asMetadata, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return asMetadata{}, fmt.Errorf("authorization server %q is not a URL", issuer)
	}
	origin, p := u.Scheme+"://"+u.Host, strings.TrimSuffix(u.Path, "/")
	candidates := []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		strings.TrimSuffix(issuer, "/") + "/.well-known/openid-configuration",
	}
	var errs []error
	for _, c := range slices.Compact(candidates) {
		var m asMetadata
		if err := s.getJSON(ctx, c, &m); err != nil {
			errs = append(errs, err)
			continue
		}
		if m.TokenEndpoint == "" {
			errs = append(errs, fmt.Errorf("%s has no token_endpoint", c))
			continue
		}
		return m, nil
	}
	return asMetadata{}, fmt.Errorf("authorization server metadata: %w", errors.Join(errs...))
}

func (s *oauthSource) getJSON(ctx context.Context, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.httpc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: HTTP %d", u, resp.StatusCode)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v); err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	return nil
}

// authStyle picks how the client authenticates at the token endpoint.
func authStyle(methods []string) oauth2.AuthStyle {
	switch {
	case len(methods) == 0, slices.Contains(methods, "client_secret_basic"):
		return oauth2.AuthStyleInHeader
	case slices.Contains(methods, "client_secret_post"):
		return oauth2.AuthStyleInParams
	}
	return oauth2.AuthStyleAutoDetect
}

// authParam returns one parameter of a WWW-Authenticate challenge.
func authParam(header, name string) string {
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimSpace(part)
		if i := strings.IndexByte(part, ' '); i > 0 && !strings.Contains(part[:i], "=") {
			part = strings.TrimSpace(part[i+1:]) // drop the scheme
		}
		k, v, ok := strings.Cut(part, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return ""
}

// oauthHeader is the transports' header function: the server's current
// OAuth token, when it has oauth configured.
func (c *Conn) oauthHeader(ctx context.Context) map[string]string {
	src := c.p.oauth[c.id]
	if src == nil {
		return nil
	}
	tok, err := src.token(ctx)
	if err != nil {
		c.log.Warn("oauth token unavailable", "event", "error_occurred", "component", "mcp_client", "error", err.Error())
		return nil
	}
	if tok == "" {
		return nil
	}
	return map[string]string{"Authorization": "Bearer " + tok}
}
