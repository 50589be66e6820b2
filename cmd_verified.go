package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"talk2tables/config"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/verified"
	"talk2tables/state"
)

// `talk2tables verified export|import FILE`: the verified questions as a
// YAML file, one entry per question, so a team can review them in git and
// load them at deploy time. An import checks every entry (its SQL
// validated on its database, as verify does) and stores all of them or,
// when one is bad, none — naming the line of the bad one.

var verifiedCommands = map[string]command{
	"export": {"write the verified questions to a YAML file (- for stdout)", runVerifiedExport},
	"import": {"load verified questions from a YAML file: all of them, or none when one is bad", runVerifiedImport},
}

func runVerified(ctx context.Context, args []string, io stdio) error {
	return dispatch(ctx, "verified", verifiedCommands, verifiedUsage, args, io)
}

func verifiedUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: talk2tables verified <command> FILE [--config mcp_config.yaml | --db FILE | --dsn URL]")
	fmt.Fprintln(w, "\nCommands:")
	for _, n := range []string{"export", "import"} {
		fmt.Fprintf(w, "  %-7s %s\n", n, verifiedCommands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'talk2tables verified <command> --help' for its flags.")
}

// verifiedFileEntry is one verified question in an export file.
type verifiedFileEntry struct {
	Question string `yaml:"question"`
	SQL      string `yaml:"sql"`
	// Database is the executor server id; empty is the top-priority one.
	Database   string    `yaml:"database,omitempty"`
	VerifiedBy string    `yaml:"verified_by,omitempty"`
	VerifiedAt time.Time `yaml:"verified_at,omitempty"`
	// Status and StaleReason are written by export for review; import
	// checks every entry again and ignores them.
	Status      string `yaml:"status,omitempty"`
	StaleReason string `yaml:"stale_reason,omitempty"`
}

var verifiedFileKeys = []string{"question", "sql", "database", "verified_by", "verified_at", "status", "stale_reason"}

// verifiedFlags parses the flags of export and import around their FILE
// argument (flags may come before or after it).
func verifiedFlags(name string, args []string, io stdio, extra func(fs *flag.FlagSet)) (file string, flags configFlags, one oneDBFlags, err error) {
	fs := newFlagSet("verified "+name, "FILE [--config mcp_config.yaml | --db FILE | --dsn URL]", io)
	flags = addConfigFlags(fs)
	one = addOneDBFlags(fs)
	if extra != nil {
		extra(fs)
	}
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return "", flags, one, errHelp
			}
			return "", flags, one, errUsage
		}
		if fs.NArg() == 0 {
			break
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) != 1 {
		fmt.Fprintf(io.err, "talk2tables verified %s: name one FILE (got %d)\n", name, len(files))
		fs.Usage()
		return "", flags, one, errUsage
	}
	if err := one.check(fs); err != nil {
		return "", flags, one, err
	}
	if *flags.level == "" {
		*flags.level = "warn" // the command's own output is what matters
	}
	return files[0], flags, one, nil
}

// verifiedState is the state configuration the flags name: the
// configuration file's, or the one-database directory's.
func verifiedState(flags configFlags, one oneDBFlags) (config.StateConfig, error) {
	if one.given() {
		dir, _, _, _, err := oneDBPlace(one)
		if err != nil {
			return config.StateConfig{}, err
		}
		return config.StateConfig{Path: filepath.Join(dir, "state.db")}, nil
	}
	cfg, err := flags.load()
	if err != nil {
		return config.StateConfig{}, err
	}
	if !cfg.State.Configured() {
		return config.StateConfig{}, errors.New("the configuration turns the state database off (state.disabled): there are no verified questions")
	}
	return cfg.State, nil
}

func runVerifiedExport(ctx context.Context, args []string, io stdio) error {
	file, flags, one, err := verifiedFlags("export", args, io, nil)
	if err != nil {
		return err
	}
	sc, err := verifiedState(flags, one)
	if err != nil {
		return fmt.Errorf("verified export: %w", err)
	}
	if sc.Path != "" {
		if _, err := os.Stat(sc.Path); errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("verified export: no state database at %s yet: nothing was verified there", sc.Path)
		}
	}
	logger, err := newLogger(io.err, *flags.level, *flags.format)
	if err != nil {
		return err
	}
	st, err := state.Open(ctx, sc, logger)
	if err != nil {
		return fmt.Errorf("verified export: %w", stateError(err))
	}
	defer st.Close()
	entries, _, err := st.All(ctx)
	if err != nil {
		return fmt.Errorf("verified export: %w", err)
	}
	out := make([]verifiedFileEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, verifiedFileEntry{Question: e.Question, SQL: e.SQL, Database: e.Database, VerifiedBy: e.VerifiedBy,
			VerifiedAt: e.VerifiedAt.UTC(), Status: e.Status, StaleReason: e.StaleReason})
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# talk2tables verified questions (%d), exported %s.\n", len(out), time.Now().UTC().Format(time.RFC3339))
	buf.WriteString("# Load with: talk2tables verified import FILE — every entry is checked; a bad one refuses the file.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("verified export: %w", err)
	}
	enc.Close()
	if file == "-" {
		_, err = io.out.Write(buf.Bytes())
		return err
	}
	if err := writeFileAtomic(file, buf.Bytes()); err != nil {
		return fmt.Errorf("verified export: %w", err)
	}
	fmt.Fprintf(io.err, "talk2tables: %d verified questions written to %s\n", len(out), file)
	return nil
}

// writeFileAtomic writes data to path through a temporary file beside it.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// lineError is a problem with the entry of an import file at a line.
type lineError struct {
	file string
	line int
	msg  string
}

func (e *lineError) Error() string {
	return fmt.Sprintf("%s:%d: %s; nothing was imported", e.file, e.line, e.msg)
}

// readVerifiedFile reads an import file: a YAML list of entries, each with
// the line it starts on.
func readVerifiedFile(file string, data []byte) ([]verifiedFileEntry, []int, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("%s: %v; nothing was imported", file, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil, fmt.Errorf("%s: the file is empty; write a list of entries (- question: ..., sql: ...)", file)
	}
	root := doc.Content[0]
	if root.Kind != yaml.SequenceNode {
		return nil, nil, &lineError{file, root.Line, "want a list of entries (- question: ..., sql: ...), as verified export writes"}
	}
	var (
		entries []verifiedFileEntry
		lines   []int
	)
	for _, item := range root.Content {
		if item.Kind != yaml.MappingNode {
			return nil, nil, &lineError{file, item.Line, "an entry is a mapping with question and sql"}
		}
		for i := 0; i < len(item.Content); i += 2 {
			k := item.Content[i]
			if !slices.Contains(verifiedFileKeys, k.Value) {
				return nil, nil, &lineError{file, k.Line, fmt.Sprintf("unknown key %q; the keys are %s", k.Value, strings.Join(verifiedFileKeys, ", "))}
			}
		}
		var e verifiedFileEntry
		if err := item.Decode(&e); err != nil {
			return nil, nil, &lineError{file, item.Line, err.Error()}
		}
		entries, lines = append(entries, e), append(lines, item.Line)
	}
	return entries, lines, nil
}

func runVerifiedImport(ctx context.Context, args []string, io stdio) error {
	var replace bool
	file, flags, one, err := verifiedFlags("import", args, io, func(fs *flag.FlagSet) {
		fs.BoolVar(&replace, "replace", false, "an entry whose question is verified already with other SQL replaces it (default: refused)")
	})
	if err != nil {
		return err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("verified import: %w", err)
	}
	entries, lines, err := readVerifiedFile(file, data)
	if err != nil {
		return fmt.Errorf("verified import: %w", err)
	}
	cfg, logger, orchOpts, closeDB, err := loadOrStartOne(ctx, flags, one, stdio{io.in, io.out, io.err})
	if err != nil {
		return fmt.Errorf("verified import: %w", err)
	}
	defer closeDB()
	book, closeBook, err := openBook(ctx, cfg.State, logger)
	if err != nil {
		return fmt.Errorf("verified import: %w", stateError(err))
	}
	defer closeBook()
	if book == nil {
		return errors.New("verified import: the configuration turns the state database off (state.disabled)")
	}
	orch, err := orchestrator.New(ctx, cfg, logger, append(orchOpts, orchestrator.WithChildStderr(io.err), orchestrator.WithVerified(book))...)
	if err != nil {
		return fmt.Errorf("verified import: start orchestrator: %w", err)
	}
	defer orch.Close()

	// Check every entry first: nothing is stored unless all are good.
	keep, keepLines, unchanged, err := checkImport(ctx, orch, book, file, entries, lines, replace)
	if err != nil {
		return fmt.Errorf("verified import: %w", err)
	}
	added, replaced, err := book.Store().Import(ctx, keep, replace)
	if err != nil {
		var ie *state.ImportError
		if errors.As(err, &ie) && ie.Index < len(keepLines) {
			return fmt.Errorf("verified import: %w", &lineError{file, keepLines[ie.Index], importProblem(ie.Err)})
		}
		return fmt.Errorf("verified import: %w", err)
	}
	fmt.Fprintf(io.err, "talk2tables: %s: %d verified questions added, %d replaced, %d unchanged\n", file, added, replaced, unchanged)
	return nil
}

// checkImport checks each entry of file (entries[i] at lines[i]) and
// returns those to store, with their lines, and how many are verified
// already with the same SQL. An entry that fails its checks, repeats an
// earlier one, or would replace other SQL without replace is an error
// naming its line.
func checkImport(ctx context.Context, orch *orchestrator.Orchestrator, book *verified.Book, file string,
	entries []verifiedFileEntry, lines []int, replace bool) (keep []state.Entry, keepLines []int, unchanged int, err error) {
	seen := map[string]int{} // database + normalized question → line
	for i, fe := range entries {
		by := cmp.Or(strings.TrimSpace(fe.VerifiedBy), "cli")
		e, err := orch.CheckEntry(ctx, orchestrator.Teach{Question: fe.Question, SQL: fe.SQL, Server: fe.Database, By: by})
		if err != nil {
			return nil, nil, 0, &lineError{file, lines[i], importProblem(err)}
		}
		if !fe.VerifiedAt.IsZero() {
			e.VerifiedAt = fe.VerifiedAt
		}
		key := e.Database + "\x00" + e.Normalized
		if prev, ok := seen[key]; ok {
			return nil, nil, 0, &lineError{file, lines[i],
				fmt.Sprintf("the question %q is the one at line %d (after normalising case, punctuation and stop words)", fe.Question, prev)}
		}
		seen[key] = lines[i]
		cur, found, err := book.Store().Find(ctx, e.Database, e.Normalized)
		if err != nil {
			return nil, nil, 0, err
		}
		switch {
		case found && strings.TrimSpace(cur.SQL) == strings.TrimSpace(e.SQL):
			unchanged++
			continue
		case found && !replace:
			return nil, nil, 0, &lineError{file, lines[i],
				fmt.Sprintf("the question %q is verified already (entry %d) with other SQL; give --replace to replace it", cur.Question, cur.ID)}
		}
		keep, keepLines = append(keep, e), append(keepLines, lines[i])
	}
	return keep, keepLines, unchanged, nil
}

// importProblem says what is wrong with an entry, naming its key.
func importProblem(err error) string {
	var (
		in  *orchestrator.InputError
		dup *state.DuplicateError
		unk *mcpclient.UnknownExecutorError
		qe  *executor.QueryExecutionError
	)
	switch {
	case errors.As(err, &in):
		return strings.Replace(in.Message, `field "`, `key "`, 1)
	case errors.As(err, &dup):
		return dup.Error()
	case errors.As(err, &unk):
		return `key "database": ` + err.Error()
	case errors.As(err, &qe):
		return `key "sql": ` + err.Error()
	}
	return err.Error()
}
