package orchestrator

import (
	"log/slog"
	"os"
	"strings"

	"talk2tables/config"
	"talk2tables/orchestrator/builtin"
	"talk2tables/orchestrator/sqlgen"
)

// NewGenerator selects the SQL generator for cfg (config.Config.LLMSettings,
// with its derived defaults): the built-in offline generator when provider
// is builtin or empty, or when an openai/anthropic key is named but its
// environment variable is empty; otherwise the LLM (langchaingo), wrapped
// with the built-in fallback when llm.fallback is "builtin" (the default).
func NewGenerator(cfg config.LLMConfig, logger *slog.Logger) (sqlgen.Generator, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return newGenerator(cfg, logger, builtin.New(logger))
}

// newGenerator is NewGenerator with offline as its built-in generator.
func newGenerator(cfg config.LLMConfig, logger *slog.Logger, offline *builtin.Generator) (sqlgen.Generator, error) {
	provider := strings.ToLower(strings.TrimSpace(cfg.Provider))
	key := ""
	if cfg.APIKeyEnv != "" {
		key = os.Getenv(cfg.APIKeyEnv)
	}
	needsKey := provider == config.ProviderOpenAI || provider == config.ProviderAnthropic
	switch {
	case provider == "" || provider == config.ProviderBuiltin:
		logger.Info("no LLM configured; using the built-in generator", "event", "llm_not_configured",
			"component", "sqlgen", "provider", provider)
		return offline, nil
	case needsKey && cfg.APIKeyEnv != "" && key == "":
		logger.Warn("LLM API key not set; using the built-in generator", "event", "llm_not_configured",
			"component", "sqlgen", "provider", provider, "api_key_env", cfg.APIKeyEnv)
		return offline, nil
	}
	llm, err := sqlgen.NewLLM(sqlgen.LLMOptions{
		Provider:    provider,
		Model:       cfg.Model,
		BaseURL:     cfg.BaseURL,
		APIKey:      key,
		APIKeyEnv:   cfg.APIKeyEnv,
		Temperature: cfg.Temperature,
		Timeout:     cfg.Timeout,
		MaxTokens:   cfg.MaxTokens,
		// sqlgen reads 0 as "default"; the config's 0 means never retry.
		MaxRetries:       llmRetries(cfg.MaxRetries),
		RetryBaseDelay:   cfg.RetryBaseDelay,
		Reserve:          cfg.DeadlineReserve,
		MaxResponseBytes: cfg.MaxResponseBytes,
	}, logger)
	if err != nil {
		return nil, err
	}
	var primary sqlgen.Generator = llm
	if cfg.CircuitFailures > 0 {
		primary = sqlgen.NewCircuit(llm, cfg.CircuitFailures, cfg.CircuitCooldown, logger)
	}
	if cfg.Fallback == config.ProviderBuiltin {
		return sqlgen.Fallback(primary, offline), nil
	}
	return primary, nil
}

// llmRetries maps llm.max_retries (0 = never) to sqlgen.LLMOptions.MaxRetries
// (0 = default, negative = never).
func llmRetries(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}
