package server

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"talk2tables/config"
	"talk2tables/internal/testfixture"
)

func TestAuth(t *testing.T) {
	const k1, k2 = "s3cret-key-one", "s3cret-key-two"
	st := newStack(t, stackOptions{apiKeys: " " + k1 + " ,," + k2})
	tests := []struct {
		name     string
		method   string
		path     string
		body     string
		auth     string
		wantCode int
		openAI   bool
	}{
		{name: "no key", method: "GET", path: "/api/servers", wantCode: 401},
		{name: "wrong key", method: "GET", path: "/api/servers", auth: "Bearer nope", wantCode: 401},
		{name: "key of another scheme", method: "GET", path: "/api/servers", auth: "Basic " + k1, wantCode: 401},
		{name: "prefix of a key", method: "GET", path: "/api/servers", auth: "Bearer s3cret-key", wantCode: 401},
		{name: "first key", method: "GET", path: "/api/servers", auth: "Bearer " + k1, wantCode: 200},
		{name: "second key, lower-case scheme", method: "GET", path: "/api/servers", auth: "bearer " + k2, wantCode: 200},
		{name: "query needs a key", method: "POST", path: "/api/query", body: `{"question":"revenue by region"}`, wantCode: 401},
		{name: "query with key", method: "POST", path: "/api/query", body: `{"question":"revenue by region"}`, auth: "Bearer " + k2, wantCode: 200},
		{name: "models need a key", method: "GET", path: "/v1/models", wantCode: 401, openAI: true},
		{name: "chat needs a key", method: "POST", path: "/chat/completions", body: `{}`, wantCode: 401, openAI: true},
		{name: "health stays open", method: "GET", path: "/health", wantCode: 200},
		{name: "metrics stay open", method: "GET", path: "/metrics", wantCode: 200},
		{name: "UI stays open", method: "GET", path: "/", wantCode: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.auth != "" {
				h["Authorization"] = tt.auth
			}
			resp, body := st.call(t, tt.method, tt.path, tt.body, h)
			if resp.StatusCode != tt.wantCode {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, tt.wantCode, body)
			}
			if tt.wantCode != 401 {
				return
			}
			if !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate = %q, want Bearer", resp.Header.Get("WWW-Authenticate"))
			}
			if tt.openAI {
				var e openAIError
				if err := json.Unmarshal(body, &e); err != nil || e.Error.Type != "authentication_error" {
					t.Errorf("body = %s, want an OpenAI authentication_error", body)
				}
				return
			}
			if e := errorOf(t, body); e.Error.Code != "unauthorized" {
				t.Errorf("code = %q, want unauthorized", e.Error.Code)
			}
		})
	}
	logs := st.logs.String()
	if strings.Contains(logs, k1) || strings.Contains(logs, k2) {
		t.Error("logs contain an API key")
	}
	var clients []string
	for _, e := range st.logs.Events(t, "http_request") {
		clients = append(clients, e["client"].(string))
	}
	if !contains(clients, "key:1") {
		t.Errorf("access-log clients = %v, want key:1 for the second key", clients)
	}
}

func TestRateLimit(t *testing.T) {
	st := newStack(t, stackOptions{apiKeys: "alpha,beta", http: func(h *config.HTTPConfig) {
		h.RateLimit = 0.01 // one token per 100 s: the bucket does not refill during the test
		h.RateBurst = 2
	}})
	alpha := map[string]string{"Authorization": "Bearer alpha"}
	for i := range 2 {
		if resp, body := st.call(t, "GET", "/api/servers", "", alpha); resp.StatusCode != 200 {
			t.Fatalf("request %d = %d %s, want 200 within the burst", i+1, resp.StatusCode, body)
		}
	}
	resp, body := st.call(t, "GET", "/api/servers", "", alpha)
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("third request = %d, want 429", resp.StatusCode)
	}
	if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || secs < 1 || secs > 100 {
		t.Errorf("Retry-After = %q, want 1..100 seconds", resp.Header.Get("Retry-After"))
	}
	if e := errorOf(t, body); e.Error.Code != "rate_limited" {
		t.Errorf("code = %q, want rate_limited", e.Error.Code)
	}
	resp, body = st.call(t, "POST", "/v1/chat/completions", `{"messages":[{"role":"user","content":"hi"}]}`, alpha)
	var oe openAIError
	if resp.StatusCode != 429 || json.Unmarshal(body, &oe) != nil || oe.Error.Type != "rate_limit_error" {
		t.Errorf("chat when limited = %d %s, want 429 rate_limit_error", resp.StatusCode, body)
	}
	if resp, _ := st.call(t, "GET", "/api/servers", "", map[string]string{"Authorization": "Bearer beta"}); resp.StatusCode != 200 {
		t.Errorf("another client = %d, want 200 (buckets are per client)", resp.StatusCode)
	}
	if resp, _ := st.call(t, "GET", "/health", "", nil); resp.StatusCode != 200 {
		t.Errorf("/health when limited = %d, want 200 (not rate limited)", resp.StatusCode)
	}
}

func TestCORS(t *testing.T) {
	const origin = "https://app.example.com"
	st := newStack(t, stackOptions{apiKeys: "k", http: func(h *config.HTTPConfig) {
		h.CORSOrigins = []string{origin}
	}})
	tests := []struct {
		name      string
		method    string
		origin    string
		header    map[string]string
		wantCode  int
		wantAllow string
	}{
		{name: "preflight allowed", method: "OPTIONS", origin: origin,
			header:   map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"},
			wantCode: 204, wantAllow: origin},
		{name: "preflight other origin", method: "OPTIONS", origin: "https://evil.example",
			header: map[string]string{"Access-Control-Request-Method": "POST"}, wantCode: 403},
		{name: "request from allowed origin", method: "GET", origin: origin,
			header: map[string]string{"Authorization": "Bearer k"}, wantCode: 200, wantAllow: origin},
		{name: "request from other origin", method: "GET", origin: "https://evil.example",
			header: map[string]string{"Authorization": "Bearer k"}, wantCode: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{"Origin": tt.origin}
			for k, v := range tt.header {
				h[k] = v
			}
			path := "/api/servers"
			if tt.method == "OPTIONS" {
				path = "/api/query"
			}
			resp, body := st.call(t, tt.method, path, "", h)
			if resp.StatusCode != tt.wantCode {
				t.Fatalf("status = %d, want %d; %s", resp.StatusCode, tt.wantCode, body)
			}
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != tt.wantAllow {
				t.Errorf("Allow-Origin = %q, want %q", got, tt.wantAllow)
			}
			if tt.wantCode == 204 {
				if m := resp.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(m, "POST") {
					t.Errorf("Allow-Methods = %q, want POST", m)
				}
				if hd := strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers")); !strings.Contains(hd, "authorization") {
					t.Errorf("Allow-Headers = %q, want Authorization", hd)
				}
			}
			if tt.wantAllow != "" && !strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "X-Request-ID") {
				t.Errorf("Expose-Headers = %q, want X-Request-ID", resp.Header.Get("Access-Control-Expose-Headers"))
			}
		})
	}
}

func TestRequestID(t *testing.T) {
	st := newStack(t, stackOptions{})
	tests := []struct {
		name   string
		sent   string
		echoed bool
	}{
		{name: "accepted", sent: "abc-123_x.y", echoed: true},
		{name: "absent", sent: ""},
		{name: "too long", sent: strings.Repeat("a", 129)},
		{name: "bad characters", sent: "a b<script>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.sent != "" {
				h["X-Request-ID"] = tt.sent
			}
			resp, body := st.call(t, "POST", "/api/query", `{"question":""}`, h)
			got := resp.Header.Get("X-Request-ID")
			if tt.echoed && got != tt.sent {
				t.Errorf("X-Request-ID = %q, want %q", got, tt.sent)
			}
			if !tt.echoed && (got == tt.sent || !validRequestID(got) || len(got) != 32) {
				t.Errorf("X-Request-ID = %q, want a fresh 32-hex id", got)
			}
			if e := errorOf(t, body); e.Error.RequestID != got {
				t.Errorf("body request_id = %q, want %q", e.Error.RequestID, got)
			}
		})
	}
}

func TestUIAndUnknownRoutes(t *testing.T) {
	st := newStack(t, stackOptions{})
	tests := []struct {
		name, method, path string
		wantCode           int
		wantText           string
	}{
		{"index", "GET", "/", 200, "<title>talk2tables</title>"},
		{"asset", "GET", "/app.js", 200, "console.log"},
		{"missing asset", "GET", "/nope.css", 404, ""},
		{"unknown API path", "GET", "/api/nope", 404, `"not_found"`},
		{"wrong method", "GET", "/api/query", 405, `"method_not_allowed"`},
		{"POST to UI", "POST", "/", 404, `"not_found"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := st.call(t, tt.method, tt.path, "", nil)
			if resp.StatusCode != tt.wantCode || !strings.Contains(string(body), tt.wantText) {
				t.Errorf("%s %s = %d %.200s, want %d containing %q", tt.method, tt.path, resp.StatusCode, body, tt.wantCode, tt.wantText)
			}
		})
	}
}

func TestRecovery(t *testing.T) {
	logs := &testfixture.LogBuffer{}
	a := &api{logger: slog.New(slog.NewJSONHandler(logs, nil))}
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(a.requestID, a.recovery)
	r.GET("/boom", func(*gin.Context) { panic("secret internal detail") })
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/boom", nil))
	if rec.Code != 500 {
		t.Fatalf("status = %d, want 500", rec.Code)
	}
	e := errorOf(t, rec.Body.Bytes())
	if e.Error.Code != "internal_error" || strings.Contains(rec.Body.String(), "secret") {
		t.Errorf("body = %s, want internal_error without the panic value", rec.Body.String())
	}
	if got := logs.Events(t, "error_occurred"); len(got) != 1 || !strings.Contains(got[0]["error"].(string), "secret internal detail") {
		t.Errorf("logged = %v, want the panic logged once", got)
	}
}

// TestMetricsPlacement: /metrics is open by default, behind the API keys
// with metrics_auth, and absent from the API's listener with metrics_addr.
func TestMetricsPlacement(t *testing.T) {
	const key = "metrics-key"
	tests := []struct {
		name     string
		http     func(*config.HTTPConfig)
		auth     string
		wantCode int
	}{
		{name: "open by default", wantCode: 200},
		{name: "behind keys without one", http: func(h *config.HTTPConfig) { h.MetricsAuth = true }, wantCode: 401},
		{name: "behind keys with one", http: func(h *config.HTTPConfig) { h.MetricsAuth = true }, auth: "Bearer " + key, wantCode: 200},
		{name: "on its own listener", http: func(h *config.HTTPConfig) { h.MetricsAddr = "127.0.0.1:9090" }, auth: "Bearer " + key, wantCode: 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newStack(t, stackOptions{apiKeys: key, http: tt.http})
			h := map[string]string{}
			if tt.auth != "" {
				h["Authorization"] = tt.auth
			}
			resp, body := st.call(t, "GET", "/metrics", "", h)
			if resp.StatusCode != tt.wantCode {
				t.Errorf("GET /metrics = %d, want %d (%.100s)", resp.StatusCode, tt.wantCode, body)
			}
		})
	}
}
