package config

import (
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"
)

// Modes of ServerConfig.Prompt.
const (
	// PromptAuto (the default): every resource is gathered; the database
	// schema and catalog resources always feed the LLM prompt (within the
	// token budget), the others only for a question about them.
	PromptAuto = "auto"
	// PromptAll: every resource is gathered and feeds every prompt whole.
	PromptAll = "all"
	// PromptNone: no resource of the server is gathered.
	PromptNone = "none"
	// PromptPatterns: only the resources whose URI matches one of the
	// patterns are gathered, and they feed every prompt.
	PromptPatterns = "patterns"
)

// DefaultMaxResourceBytes is the default of ServerConfig.MaxResourceBytes.
const DefaultMaxResourceBytes = 256 << 10

// DefaultPromptTokenBudget is the default of LLMConfig.PromptTokenBudget.
const DefaultPromptTokenBudget = 8000

// minPromptTokenBudget is the smallest budget accepted: the instructions
// alone take about 1,500 tokens.
const minPromptTokenBudget = 2000

// PromptResources is a server's `prompt` key: a mode (all, none, auto) or a
// list of URI patterns (path.Match syntax: `*` matches within a path
// segment, e.g. "database://*" or "docs://guides/*.md").
type PromptResources struct {
	Mode     string   // PromptAuto when empty
	Patterns []string // with PromptPatterns
}

// UnmarshalYAML accepts a scalar mode or a sequence of URI patterns.
func (p *PromptResources) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		p.Mode, p.Patterns = strings.ToLower(strings.TrimSpace(n.Value)), nil
		return nil
	case yaml.SequenceNode:
		var pats []string
		if err := n.Decode(&pats); err != nil {
			return fmt.Errorf("line %d: prompt: a list of URI patterns must hold strings: %w", n.Line, err)
		}
		p.Mode, p.Patterns = PromptPatterns, pats
		return nil
	}
	return fmt.Errorf("line %d: prompt: write all, none, auto or a list of URI patterns", n.Line)
}

// mode is p's mode with the default applied.
func (p PromptResources) mode() string {
	if p.Mode == "" {
		return PromptAuto
	}
	return p.Mode
}

// validate reports a bad mode or pattern of the server at path at.
func (p PromptResources) validate(at string, add func(format string, args ...any)) {
	switch p.mode() {
	case PromptAuto, PromptAll, PromptNone:
	case PromptPatterns:
		if len(p.Patterns) == 0 {
			add("%s.prompt: an empty list gathers nothing; write none, or list URI patterns such as \"database://*\"", at)
		}
		for i, pat := range p.Patterns {
			if _, err := path.Match(pat, ""); err != nil || strings.TrimSpace(pat) == "" {
				add("%s.prompt[%d]: %q is not a valid URI pattern (path.Match syntax: * ? [a-z], e.g. \"docs://*.md\")", at, i, pat)
			}
		}
	default:
		add("%s.prompt: unknown value %q (want all, none, auto or a list of URI patterns)", at, p.Mode)
	}
}

// Gathers reports whether the server's resources are gathered at all: not
// with prompt: none, nor when its declared capabilities leave out
// list_resources (a server declaring no capabilities is read).
func (s ServerConfig) Gathers() bool {
	if s.Prompt.mode() == PromptNone {
		return false
	}
	return len(s.Capabilities) == 0 || s.HasCapability(CapListResources)
}

// Wants reports whether the resource at uri is gathered.
func (s ServerConfig) Wants(uri string) bool {
	if s.Prompt.mode() != PromptPatterns {
		return true
	}
	for _, pat := range s.Prompt.Patterns {
		if ok, _ := path.Match(pat, uri); ok {
			return true
		}
	}
	return false
}

// RelevantOnly reports whether the server's resources other than schemas
// and catalogs feed a prompt only when relevant (sqlgen.ServerContext).
func (s ServerConfig) RelevantOnly() bool { return s.Prompt.mode() == PromptAuto }

// ResourceCap is the size cap of one resource of the server.
func (s ServerConfig) ResourceCap() int {
	if s.MaxResourceBytes > 0 {
		return s.MaxResourceBytes
	}
	return DefaultMaxResourceBytes
}

// validatePrompt reports the problems of a server's prompt keys.
func validatePrompt(at string, s ServerConfig, add func(format string, args ...any)) {
	s.Prompt.validate(at, add)
	if s.MaxResourceBytes < 0 {
		add("%s.max_resource_bytes: %d must not be negative (0 means the default, %d)", at, s.MaxResourceBytes, DefaultMaxResourceBytes)
	}
}

// TokenBudget maps llm.prompt_token_budget (0: off) to
// sqlgen.RenderOptions.TokenBudget (negative: off).
func (l LLMConfig) TokenBudget() int {
	if l.PromptTokenBudget <= 0 {
		return -1
	}
	return l.PromptTokenBudget
}
