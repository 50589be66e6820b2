// Command talk2tables answers natural-language questions about SQL data.
//
// One binary, several subcommands:
//
//	talk2tables serve         the HTTP API, orchestrator and web UI
//	talk2tables database-mcp  MCP server over a SQLite file
//	talk2tables metadata-mcp  MCP server over a semantic catalog
//	talk2tables gen-data      builds the sample SQLite database
//	talk2tables catalog       drafts, migrates and validates catalogs
//	talk2tables mcp           talk2tables itself as an MCP server over stdio
//
// main only parses flags and wires packages together.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"talk2tables/config"
	"talk2tables/orchestrator"
)

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdio stdio) error
}

// stdio bundles the process streams so subcommands can be tested in-process.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

var commands = map[string]command{
	"serve":        {"run the HTTP API, orchestrator and web UI", runServe},
	"database-mcp": {"run the MCP server over a SQLite database", runDatabaseMCP},
	"metadata-mcp": {"run the MCP server over a semantic catalog", runMetadataMCP},
	"gen-data":     {"generate the sample SQLite database", runGenData},
	"catalog":      {"draft (init), migrate or validate a catalog", runCatalog},
	"mcp":          {"serve talk2tables as an MCP server over stdio (ask, run_sql, downstream tools)", runMCP},
	"verified":     {"export or import the verified questions (YAML)", runVerified},
}

// errUsage marks a command-line mistake: usage was printed, exit code 2.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], stdio{os.Stdin, os.Stdout, os.Stderr})
	stop()
	switch {
	case err == nil, errors.Is(err, errHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintf(os.Stderr, "talk2tables: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, io stdio) error {
	if len(args) == 0 {
		usage(io.err)
		return errUsage
	}
	name := args[0]
	switch name {
	case "-h", "--help", "help":
		usage(io.out)
		return nil
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(io.err, "talk2tables: unknown command %q\n\n", name)
		usage(io.err)
		return errUsage
	}
	flush, err := setupTracing(ctx, name)
	if err != nil {
		return err
	}
	defer flush()
	return cmd.run(ctx, args[1:], io)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: talk2tables <command> [flags]")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-13s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'talk2tables <command> --help' for the flags of a command.")
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints usage to stderr.
func newFlagSet(name, synopsis string, io stdio) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.err)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: talk2tables %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; -h prints usage and returns errHelp (exit 0), a bad
// flag or a stray argument returns errUsage (exit 2).
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "talk2tables %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return errUsage
	}
	return nil
}

// errHelp means --help was asked for and printed: exit 0.
var errHelp = errors.New("help")

// configFlags are the flags serve and mcp share: the configuration file and
// the log overrides.
type configFlags struct{ path, level, format *string }

func addConfigFlags(fs *flag.FlagSet) configFlags {
	return configFlags{
		path:   fs.String("config", "mcp_config.yaml", "orchestrator configuration `file`"),
		level:  fs.String("log-level", "", "debug, info, warn or error; overrides orchestration.log_level"),
		format: fs.String("log-format", "", "json or text; overrides orchestration.log_format"),
	}
}

// loadOrStartOne returns the configuration of serve or mcp with its
// logger: the file's (--config), or, with --db or --dsn, one database's
// started in-process (startOneDB), with the orchestrator options that
// attach it and a function that stops it.
func loadOrStartOne(ctx context.Context, flags configFlags, one oneDBFlags, io stdio) (*config.Config, *slog.Logger, []orchestrator.Option, func(), error) {
	if !one.given() {
		cfg, err := flags.load()
		if err != nil {
			return nil, nil, nil, nil, err
		}
		logger, err := newLogger(io.err, cfg.Orchestration.LogLevel, cfg.Orchestration.LogFormat)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		return cfg, logger, nil, func() {}, nil
	}
	def := config.DefaultConfig().Orchestration
	level, format := *flags.level, *flags.format
	logger, err := newLogger(io.err, cmp.Or(level, def.LogLevel), cmp.Or(format, def.LogFormat))
	if err != nil {
		return nil, nil, nil, nil, err
	}
	d, err := startOneDB(ctx, one, level, format, logger, io.err)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return d.cfg, logger, d.opts, d.Close, nil
}

// load reads the configuration and applies the log overrides to it, so
// stdio MCP children log the same way.
func (f configFlags) load() (*config.Config, error) {
	cfg, err := config.LoadConfig(*f.path)
	if err != nil {
		return nil, err
	}
	if *f.level != "" {
		cfg.Orchestration.LogLevel = *f.level
	}
	if *f.format != "" {
		cfg.Orchestration.LogFormat = *f.format
	}
	return cfg, nil
}
