package main

import (
	"context"
	"fmt"
	"log/slog"

	"talk2tables/config"
	"talk2tables/orchestrator/verified"
	"talk2tables/state"
)

// openBook opens the state database cfg names and loads its verified
// questions; nil when state is off. close closes it.
func openBook(ctx context.Context, cfg config.StateConfig, logger *slog.Logger) (book *verified.Book, close func(), err error) {
	if !cfg.Configured() {
		logger.Info("verified questions off: no state database", "event", "state_disabled")
		return nil, func() {}, nil
	}
	st, err := state.Open(ctx, cfg, logger)
	if err != nil {
		if cfg.DSN == "" {
			// The default file sits beside the configuration, which may be
			// read-only where it is deployed.
			err = fmt.Errorf("%w (set state.path to a file talk2tables may write, or state.disabled: true to run without verified questions)", err)
		}
		return nil, nil, err
	}
	book = verified.New(st, cfg.RefreshInterval(), logger)
	if err := book.Load(ctx); err != nil {
		st.Close()
		return nil, nil, err
	}
	logger.Info("state database opened", "event", "state_opened", "engine", st.Engine(), "where", st.Where(),
		"verified_questions", len(book.Entries(ctx)))
	return book, func() {
		if err := st.Close(); err != nil {
			logger.Warn("close state database", "event", "state_closed", "error", err.Error())
		}
	}, nil
}

// stateError says which state database could not be opened.
func stateError(err error) error { return fmt.Errorf("state database: %w", err) }
