package sqlgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"talk2tables/telemetry"
)

// LLM provider names accepted by NewLLM.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	ProviderOllama    = "ollama"
)

// Defaults for LLMOptions' zero values.
const (
	DefaultTimeout       = 30 * time.Second
	DefaultMaxTokens     = 1024
	DefaultMaxRetries    = 3
	DefaultRetryBase     = 500 * time.Millisecond
	DefaultMaxRetryDelay = 30 * time.Second
	// DefaultMaxResponseBytes bounds one HTTP answer of the LLM: a
	// chat completion of MaxTokens tokens is a few kilobytes.
	DefaultMaxResponseBytes = 4 << 20
)

// LLMOptions configure an LLM generator.
type LLMOptions struct {
	// Provider is openai (any OpenAI-compatible base URL), anthropic or ollama.
	Provider string
	Model    string
	// BaseURL overrides the provider's endpoint: for openai the URL ending in
	// /v1 (a bare host gets /v1 appended), for anthropic likewise, for ollama
	// the server root (http://localhost:11434).
	BaseURL string
	// APIKey is the resolved secret (never logged). Required for openai and
	// anthropic; any non-empty value works for local OpenAI-compatible servers.
	APIKey string
	// APIKeyEnv is the name of the environment variable the key comes from,
	// used only in error messages; default OPENAI_API_KEY / ANTHROPIC_API_KEY.
	APIKeyEnv   string
	Temperature float64
	// Timeout bounds each LLM request (default 30s). A request that runs out
	// of it is retried like a 5xx.
	Timeout time.Duration
	// MaxTokens bounds the answer (default 1024).
	MaxTokens int
	// MaxRetries is how many times a timeout, 429, 5xx or connection failure
	// is retried (default 3; negative means never).
	MaxRetries int
	// RetryBaseDelay is the first backoff delay, doubled per retry, with
	// jitter (default 500ms).
	RetryBaseDelay time.Duration
	// MaxRetryDelay caps any single wait, including a server's Retry-After
	// (default 30s).
	MaxRetryDelay time.Duration
	// Reserve is kept from the caller's deadline: the LLM's requests,
	// retries included, end that long before it, so the rest of the
	// question (a fallback generator, the SQL) still has time to run and a
	// hung LLM is an LLM failure (ErrLLMTimeout) rather than the question's
	// timeout. 0 keeps nothing.
	Reserve time.Duration
	// MaxResponseBytes bounds each HTTP answer of the LLM (default
	// DefaultMaxResponseBytes): reading stops past it, and the request is
	// an ErrLLMResponseTooLarge failure.
	MaxResponseBytes int64
	// HTTPClient is used for the provider calls (it is copied, not changed);
	// nil means a client of the generator's own with a keep-alive pool sized
	// for concurrent questions (see newTransport).
	HTTPClient *http.Client
}

// Keep-alive pool of the generator's own transport. Go's default keeps 2
// idle connections per host, so 50 concurrent questions to one LLM endpoint
// would open (and leave in TIME_WAIT) a new TCP connection for most calls.
const (
	llmMaxIdleConnsPerHost = 64
	llmIdleConnTimeout     = 90 * time.Second
)

// newTransport returns a copy of http.DefaultTransport's settings (proxy
// from the environment, dial and TLS timeouts, HTTP/2) with a keep-alive
// pool large enough for concurrent questions.
func newTransport() *http.Transport {
	var t *http.Transport
	if dt, ok := http.DefaultTransport.(*http.Transport); ok {
		t = dt.Clone()
	} else {
		t = &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true,
			TLSHandshakeTimeout: 10 * time.Second}
	}
	t.MaxIdleConns = max(t.MaxIdleConns, 2*llmMaxIdleConnsPerHost)
	t.MaxIdleConnsPerHost = llmMaxIdleConnsPerHost
	t.IdleConnTimeout = llmIdleConnTimeout
	return t
}

// LLM generates SQL with a large language model through langchaingo. It is
// safe for concurrent use.
type LLM struct {
	opts     LLMOptions
	name     string
	model    llms.Model
	logger   *slog.Logger
	jsonMode atomic.Bool // asked of openai/ollama until a server refuses it
	// own is the transport NewLLM made (nil when the caller gave an
	// HTTPClient); CloseIdleConnections closes its idle connections.
	own *http.Transport

	// sleep waits d or until ctx is done; replaced in tests to observe waits.
	sleep func(ctx context.Context, d time.Duration) error
}

var _ Generator = (*LLM)(nil)

// NewLLM builds the generator for cfg. A missing model or API key, or an
// unknown provider, is a SQLGenerationError with Reason not_configured whose
// message says how to configure it.
func NewLLM(cfg LLMOptions, logger *slog.Logger) (*LLM, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cfg.setDefaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	baseURL, err := normaliseBaseURL(cfg.Provider, cfg.BaseURL)
	if err != nil {
		return nil, notConfigured("llm.base_url: %v", err)
	}
	cfg.BaseURL = baseURL

	client, own := cfg.httpClient()
	l := &LLM{opts: cfg, name: cfg.Provider + ":" + cfg.Model, logger: logger, own: own, sleep: sleepCtx}
	model, jsonMode, err := newModel(cfg, client)
	if err != nil {
		return nil, notConfigured("cannot set up the %s client: %v", cfg.Provider, err)
	}
	l.model = model
	l.jsonMode.Store(jsonMode)
	return l, nil
}

// notConfigured is the SQLGenerationError for a configuration that cannot
// reach an LLM; the message says what to set.
func notConfigured(format string, args ...any) error {
	return &SQLGenerationError{Reason: ReasonNotConfigured, Message: fmt.Sprintf(format, args...)}
}

// setDefaults normalises the provider name and fills every unset limit, and
// the API key variable's name, with its default.
func (cfg *LLMOptions) setDefaults() {
	cfg.Provider = strings.ToLower(strings.TrimSpace(cfg.Provider))
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.RetryBaseDelay <= 0 {
		cfg.RetryBaseDelay = DefaultRetryBase
	}
	if cfg.MaxRetryDelay <= 0 {
		cfg.MaxRetryDelay = DefaultMaxRetryDelay
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.APIKeyEnv == "" {
		switch cfg.Provider {
		case ProviderOpenAI:
			cfg.APIKeyEnv = "OPENAI_API_KEY"
		case ProviderAnthropic:
			cfg.APIKeyEnv = "ANTHROPIC_API_KEY"
		}
	}
}

// check reports a missing or unknown provider, a missing model or a missing
// API key as not_configured, saying how to set it.
func (cfg *LLMOptions) check() error {
	switch cfg.Provider {
	case ProviderOpenAI, ProviderAnthropic, ProviderOllama:
	case "":
		return notConfigured("no LLM provider is configured: set llm.provider to openai, anthropic or ollama " +
			"(with llm.model and the API key in the environment), or to builtin for the offline generator")
	default:
		return notConfigured("unknown llm.provider %q: use openai (any OpenAI-compatible base_url), anthropic, "+
			"ollama, or builtin for the offline generator", cfg.Provider)
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return notConfigured("llm.model is required for provider %s (e.g. %s)", cfg.Provider, exampleModel(cfg.Provider))
	}
	if cfg.Provider != ProviderOllama && cfg.APIKey == "" {
		hint := ""
		if cfg.BaseURL != "" {
			hint = " (a local OpenAI-compatible server accepts any non-empty value)"
		}
		return notConfigured("no API key for the %s LLM: set the environment variable %s%s, or name another "+
			"variable in llm.api_key_env, or set llm.provider: builtin to use the offline generator",
			cfg.Provider, cfg.APIKeyEnv, hint)
	}
	return nil
}

// httpClient is the client the LLM calls go through: a copy of
// cfg.HTTPClient, or a new one on a transport of its own (returned as own, to
// close with the LLM), with response bodies bounded and recorded.
func (cfg *LLMOptions) httpClient() (client *http.Client, own *http.Transport) {
	client = &http.Client{}
	if cfg.HTTPClient != nil {
		c := *cfg.HTTPClient
		client = &c
	}
	base := client.Transport
	if base == nil {
		if cfg.HTTPClient != nil {
			base = http.DefaultTransport
		} else {
			own = newTransport()
			base = own
		}
	}
	// Each request to the LLM is a client span when tracing is on.
	client.Transport = telemetry.HTTPTransport(&recordingTransport{base: base, limit: cfg.MaxResponseBytes}, "llm")
	return client, own
}

// newModel builds the langchaingo model for cfg.Provider; jsonMode says
// whether the provider is asked for JSON output.
func newModel(cfg LLMOptions, client *http.Client) (model llms.Model, jsonMode bool, err error) {
	switch cfg.Provider {
	case ProviderOpenAI:
		o := []openai.Option{openai.WithToken(cfg.APIKey), openai.WithModel(cfg.Model), openai.WithHTTPClient(client)}
		if cfg.BaseURL != "" {
			o = append(o, openai.WithBaseURL(cfg.BaseURL))
		}
		model, err = openai.New(o...)
		jsonMode = true
	case ProviderAnthropic:
		o := []anthropic.Option{anthropic.WithToken(cfg.APIKey), anthropic.WithModel(cfg.Model), anthropic.WithHTTPClient(client)}
		if cfg.BaseURL != "" {
			o = append(o, anthropic.WithBaseURL(cfg.BaseURL))
		}
		model, err = anthropic.New(o...)
	case ProviderOllama:
		o := []ollama.Option{ollama.WithModel(cfg.Model), ollama.WithHTTPClient(client)}
		if cfg.BaseURL != "" {
			o = append(o, ollama.WithServerURL(cfg.BaseURL))
		}
		model, err = ollama.New(o...)
		jsonMode = true
	}
	return model, jsonMode, err
}

func exampleModel(provider string) string {
	switch provider {
	case ProviderAnthropic:
		return "claude-sonnet-4-5"
	case ProviderOllama:
		return "qwen2.5-coder:7b"
	default:
		return "gpt-4o-mini"
	}
}

// normaliseBaseURL checks raw and, for openai and anthropic, appends /v1 to a
// bare host. Empty stays empty (the provider's default).
func normaliseBaseURL(provider, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL such as http://localhost:8000/v1", raw)
	}
	s := strings.TrimRight(raw, "/")
	if provider != ProviderOllama && strings.Trim(u.Path, "/") == "" {
		s += "/v1"
	}
	return s, nil
}

// Name returns "<provider>:<model>".
func (l *LLM) Name() string { return l.name }

// CloseIdleConnections closes the keep-alive connections of the generator's
// own transport (none when LLMOptions.HTTPClient was given: the caller owns
// that one). The generator stays usable; later calls dial again.
func (l *LLM) CloseIdleConnections() {
	if l.own != nil {
		l.own.CloseIdleConnections()
	}
}

// Generate asks the model for SQL answering req (a repair prompt when
// req.Repair is set). On an invalid answer the returned Plan still carries
// Generator and Usage, so tokens spent are not lost.
func (l *LLM) Generate(ctx context.Context, req Request) (Plan, error) {
	system, user := BuildPrompt(req)
	if l.opts.Provider == ProviderAnthropic {
		// No JSON mode: the contract is in the prompt; repeat the demand last.
		user += " Do not wrap it in markdown."
	}
	text, usage, err := l.complete(ctx, system, user)
	if err != nil {
		return Plan{Generator: l.name, Usage: usage}, err
	}
	plan, err := ParseAnswer(req, text)
	plan.Generator, plan.Usage = l.name, usage
	return plan, err
}

// complete runs one chat completion with retries, within the LLM's share
// of ctx's time (see LLMOptions.Reserve).
func (l *LLM) complete(ctx context.Context, system, user string) (string, Usage, error) {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, system),
		llms.TextParts(llms.ChatMessageTypeHuman, user),
	}
	bctx, share, cancel := l.budget(ctx)
	defer cancel()
	if bctx.Err() != nil {
		return "", Usage{}, l.outOfTime(share, 0)
	}
	var lastErr error
	attempts := 0
	jsonFallbackUsed := false
	for retry := 0; ; retry++ {
		attempts++
		rec := &callRecord{}
		callCtx, cancel := context.WithTimeout(context.WithValue(bctx, recordKey{}, rec), l.opts.Timeout)
		resp, err := l.model.GenerateContent(callCtx, msgs, l.callOptions()...)
		callErr := callCtx.Err()
		cancel()
		if err == nil {
			text, usage := responseText(resp)
			return text, usage, nil
		}
		if ctx.Err() != nil {
			return "", Usage{}, l.stoppedWaiting(ctx.Err(), err)
		}
		if bctx.Err() != nil {
			return "", Usage{}, l.outOfTime(share, attempts)
		}
		status, retryAfter, tooLarge := rec.get()
		retryErr, fatal, dropJSON := l.judgeFailure(err, callErr, status, tooLarge, jsonFallbackUsed)
		switch {
		case fatal != nil:
			return "", Usage{}, fatal
		case dropJSON:
			// Some OpenAI-compatible servers refuse json_object: stop asking.
			l.jsonMode.Store(false)
			jsonFallbackUsed = true
			l.logger.Warn("llm server refused JSON mode; continuing without it",
				"event", "error_occurred", "component", "llm", "generator", l.name)
			retry--
			continue
		}
		lastErr = retryErr
		if retry >= l.opts.MaxRetries {
			break
		}
		if err := l.waitToRetry(ctx, bctx, share, retry, attempts, status, retryAfter, lastErr); err != nil {
			return "", Usage{}, err
		}
	}
	return "", Usage{}, l.gaveUp(lastErr, attempts)
}

// judgeFailure says what a failed call means: fatal ends the completion with
// that error; dropJSON asks again without JSON mode; otherwise the call may
// be retried, and retryErr says why it failed.
func (l *LLM) judgeFailure(err, callErr error, status int, tooLarge, jsonFallbackUsed bool) (retryErr, fatal error, dropJSON bool) {
	switch {
	case tooLarge:
		// Another request would most likely be answered the same way.
		return nil, &SQLGenerationError{Reason: ReasonLLMCommunication,
			Message: fmt.Sprintf("the LLM (%s) answered with more than %s (llm.max_response_bytes); it was not read further: "+
				"check llm.base_url and llm.max_tokens", l.name, byteSize(l.opts.MaxResponseBytes)),
			Err: fmt.Errorf("%w: %v", ErrLLMResponseTooLarge, err)}, false
	case errors.Is(callErr, context.DeadlineExceeded):
		return fmt.Errorf("no answer within %s: %w", l.opts.Timeout, ErrLLMTimeout), nil, false
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return nil, &SQLGenerationError{Reason: ReasonNotConfigured,
			Message: fmt.Sprintf("the %s LLM rejected the API key (HTTP %d): check the key in the environment "+
				"variable %s (llm.api_key_env) and that it may use model %q", l.opts.Provider, status, l.keyEnv(), l.opts.Model),
			Err: err}, false
	case status == http.StatusBadRequest && l.jsonMode.Load() && !jsonFallbackUsed &&
		strings.Contains(strings.ToLower(err.Error()), "response_format"):
		return nil, nil, true
	case status == http.StatusTooManyRequests || status >= 500:
		return fmt.Errorf("HTTP %d: %w", status, err), nil, false
	case status >= 400:
		return nil, &SQLGenerationError{Reason: ReasonLLMCommunication,
			Message: fmt.Sprintf("the LLM (%s) refused the request with HTTP %d: %s%s",
				l.name, status, providerMessage(err), statusHint(status)),
			Err: err}, false
	case status == 0:
		return fmt.Errorf("cannot reach %s: %w", l.endpoint(), err), nil, false
	default: // 2xx with an unreadable body
		return nil, &SQLGenerationError{Reason: ReasonLLMCommunication,
			Message: fmt.Sprintf("the LLM (%s) answered HTTP %d with invalid JSON, not a chat completion: "+
				"check that llm.base_url points at an OpenAI-compatible API", l.name, status),
			Err: fmt.Errorf("%w: %v", ErrLLMInvalidResponse, err)}, false
	}
}

// waitToRetry logs the failed attempt and sleeps before the next one: the
// backoff, or the server's Retry-After capped at llm.max_retry_delay. It
// fails when the wait would pass the LLM's deadline or ctx ends during it.
func (l *LLM) waitToRetry(ctx, bctx context.Context, share time.Duration, retry, attempts, status int,
	retryAfter time.Duration, lastErr error) error {
	wait := l.backoff(retry)
	if retryAfter > 0 {
		wait = min(retryAfter, l.opts.MaxRetryDelay)
	}
	if dl, ok := bctx.Deadline(); ok && time.Until(dl) < wait {
		return &SQLGenerationError{Reason: ReasonLLMCommunication,
			Message: fmt.Sprintf("the LLM (%s) failed and waiting %s to retry would pass its deadline (the query's, less llm.deadline_reserve)",
				l.name, wait.Round(time.Millisecond)),
			Err: lastErr}
	}
	l.logger.Warn("llm request failed; retrying", "event", "error_occurred", "component", "llm",
		"generator", l.name, "attempt", attempts, "status", status, "wait_ms", wait.Milliseconds(), "error", lastErr.Error())
	if err := l.sleep(bctx, wait); err != nil {
		if ctx.Err() == nil {
			return l.outOfTime(share, attempts)
		}
		return l.stoppedWaiting(err, lastErr)
	}
	return nil
}

// stoppedWaiting is the error when the query is cancelled or out of time
// while waiting for the LLM; last is the attempt's own error.
func (l *LLM) stoppedWaiting(cause, last error) error {
	return &SQLGenerationError{Reason: ReasonLLMCommunication,
		Message: fmt.Sprintf("stopped waiting for the LLM (%s): the query was cancelled or ran out of time", l.name),
		Err:     fmt.Errorf("%w (last error: %v)", cause, last)}
}

// gaveUp is the error after the last retry failed with lastErr.
func (l *LLM) gaveUp(lastErr error, attempts int) error {
	if errors.Is(lastErr, ErrLLMTimeout) {
		return &SQLGenerationError{Reason: ReasonLLMCommunication,
			Message: fmt.Sprintf("the LLM (%s) did not answer within %s (llm.timeout), %d attempt(s)", l.name, l.opts.Timeout, attempts),
			Err:     lastErr}
	}
	return &SQLGenerationError{Reason: ReasonLLMCommunication,
		Message: fmt.Sprintf("the LLM (%s) kept failing after %d attempt(s); check that it is running and reachable at %s",
			l.name, attempts, l.endpoint()),
		Err: lastErr}
}

// budget is ctx shortened by LLMOptions.Reserve: the LLM's share of the
// caller's time (share; 0 when ctx has no deadline or nothing is kept).
func (l *LLM) budget(ctx context.Context) (context.Context, time.Duration, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok || l.opts.Reserve <= 0 {
		return ctx, 0, func() {}
	}
	end := dl.Add(-l.opts.Reserve)
	bctx, cancel := context.WithDeadline(ctx, end)
	return bctx, max(time.Until(end), 0), cancel
}

// outOfTime is the failure of an LLM whose share of the question's time
// ran out after attempts requests (0: none could be sent).
func (l *LLM) outOfTime(share time.Duration, attempts int) error {
	msg := fmt.Sprintf("the LLM (%s) did not answer within %s, its share of the question's time "+
		"(orchestration.query_timeout less llm.deadline_reserve)", l.name, share.Round(time.Millisecond))
	if attempts == 0 {
		msg = fmt.Sprintf("the LLM (%s) was not asked: less than llm.deadline_reserve (%s) of the question's time was left",
			l.name, l.opts.Reserve)
	}
	return &SQLGenerationError{Reason: ReasonLLMCommunication, Message: msg, Err: ErrLLMTimeout}
}

func (l *LLM) callOptions() []llms.CallOption {
	o := []llms.CallOption{llms.WithTemperature(l.opts.Temperature), llms.WithMaxTokens(l.opts.MaxTokens)}
	if l.jsonMode.Load() {
		o = append(o, llms.WithJSONMode())
	}
	if l.opts.Provider == ProviderOpenAI && l.opts.BaseURL != "" && !strings.Contains(l.opts.BaseURL, "api.openai.com") {
		// OpenAI-compatible servers (vLLM, llama.cpp, Ollama, LM Studio,
		// OpenRouter) all understand max_tokens; not all know
		// max_completion_tokens.
		o = append(o, openai.WithLegacyMaxTokensField())
	}
	return o
}

func (l *LLM) keyEnv() string {
	if l.opts.APIKeyEnv != "" {
		return l.opts.APIKeyEnv
	}
	return "(none)"
}

// endpoint names where the provider is reached, for messages.
func (l *LLM) endpoint() string {
	if l.opts.BaseURL != "" {
		return l.opts.BaseURL
	}
	switch l.opts.Provider {
	case ProviderAnthropic:
		return "https://api.anthropic.com/v1"
	case ProviderOllama:
		return "the Ollama server (OLLAMA_HOST or http://127.0.0.1:11434)"
	default:
		return "https://api.openai.com/v1"
	}
}

// backoff is the exponential delay before retry number retry (0-based),
// with full jitter in [d/2, d].
func (l *LLM) backoff(retry int) time.Duration {
	d := l.opts.RetryBaseDelay << min(retry, 10)
	d = min(d, l.opts.MaxRetryDelay)
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(half)+1))
}

// providerMessage strips langchaingo's "API returned unexpected status code:
// N: " prefix from err, leaving the provider's own message.
func providerMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "status code: "); i >= 0 {
		rest := msg[i+len("status code: "):]
		if j := strings.Index(rest, ": "); j >= 0 {
			return rest[j+2:]
		}
	}
	return excerpt(msg)
}

func statusHint(status int) string {
	switch status {
	case http.StatusNotFound:
		return " (check llm.model and llm.base_url)"
	case http.StatusBadRequest:
		return " (check llm.model, llm.max_tokens and llm.temperature)"
	}
	return ""
}

// responseText joins the text of all choices (anthropic splits answers into
// blocks; thinking blocks have no text) and normalises token usage.
func responseText(resp *llms.ContentResponse) (string, Usage) {
	var parts []string
	var u Usage
	for _, c := range resp.Choices {
		if c == nil {
			continue
		}
		if c.Content != "" {
			parts = append(parts, c.Content)
		}
		if u == (Usage{}) {
			u = usageFrom(c.GenerationInfo)
		}
	}
	return strings.Join(parts, ""), u
}

// usageFrom normalises token counts: openai/ollama report PromptTokens,
// CompletionTokens and TotalTokens; anthropic InputTokens and OutputTokens.
func usageFrom(gi map[string]any) Usage {
	if gi == nil {
		return Usage{}
	}
	u := Usage{
		PromptTokens:     intOf(gi["PromptTokens"]),
		CompletionTokens: intOf(gi["CompletionTokens"]),
		TotalTokens:      intOf(gi["TotalTokens"]),
	}
	if u.PromptTokens == 0 {
		u.PromptTokens = intOf(gi["InputTokens"])
	}
	if u.CompletionTokens == 0 {
		u.CompletionTokens = intOf(gi["OutputTokens"])
	}
	if u.TotalTokens == 0 {
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	return u
}

func intOf(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int32:
		return int(n)
	case int64:
		return int(n)
	case float64:
		return int(n)
	case float32:
		return int(n)
	}
	return 0
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// recordKey is the context key of a call's *callRecord.
type recordKey struct{}

// callRecord remembers the HTTP status and Retry-After of the last response
// seen for one LLM call (langchaingo reports errors only as text), and
// whether its body was over the size limit.
type callRecord struct {
	mu         sync.Mutex
	status     int
	retryAfter time.Duration
	tooLarge   bool
}

func (r *callRecord) set(status int, retryAfter time.Duration) {
	r.mu.Lock()
	r.status, r.retryAfter = status, retryAfter
	r.mu.Unlock()
}

func (r *callRecord) setTooLarge() {
	r.mu.Lock()
	r.tooLarge = true
	r.mu.Unlock()
}

func (r *callRecord) get() (int, time.Duration, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status, r.retryAfter, r.tooLarge
}

// recordingTransport records each response's status and Retry-After in the
// request context's callRecord, and reads its body through limit bytes.
type recordingTransport struct {
	base  http.RoundTripper
	limit int64
}

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	rec, _ := req.Context().Value(recordKey{}).(*callRecord)
	if rec == nil {
		rec = &callRecord{}
	}
	if resp != nil {
		rec.set(resp.StatusCode, parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()))
		if t.limit > 0 && resp.Body != nil {
			resp.Body = &limitedBody{body: resp.Body, left: t.limit, rec: rec}
			if resp.ContentLength > t.limit {
				// Refused unread: the client sees the error on its first read.
				resp.Body.(*limitedBody).left = 0
				resp.Body.(*limitedBody).over = true
			}
		}
	}
	return resp, err
}

// errBodyTooLarge is the read error of an LLM answer over the limit.
var errBodyTooLarge = fmt.Errorf("llm response body: %w", ErrLLMResponseTooLarge)

// limitedBody reads at most left bytes of body; a byte more is an error
// (recorded in rec), and nothing more is read.
type limitedBody struct {
	body io.ReadCloser
	left int64
	over bool
	rec  *callRecord
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.over {
		b.rec.setTooLarge()
		return 0, errBodyTooLarge
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.body.Read(p)
	if int64(n) > b.left {
		b.over = true
		b.rec.setTooLarge()
		return int(b.left), errBodyTooLarge
	}
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.body.Close() }

// byteSize writes n bytes for a message: "4 MiB", "512 KiB", "100 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date.
// Invalid or past values give 0.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 || secs > 1e6 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
