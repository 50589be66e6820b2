package main

// The documentation is checked like code: every relative link in README.md
// and docs/*.md must reach an existing file (and heading), and every command
// line of a fenced block that runs talk2tables or make must name a subcommand,
// flags and targets that exist. The flags come from the real flag sets: each
// subcommand is run with --help and its printed defaults are read.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// docFiles returns README.md and docs/*.md.
func docFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, files...)
}

func TestDocsLinks(t *testing.T) {
	for _, p := range checkLinks(docFiles(t), os.ReadFile) {
		t.Error(p)
	}
}

func TestDocsCommands(t *testing.T) {
	flags := subcommandFlags(t)
	targets := makeTargets(t, "Makefile")
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range checkCommands(file, string(data), flags, targets) {
			t.Error(p)
		}
	}
}

// TestDocsCheckersFail shows the two checks fail on a broken link, a missing
// heading, an unknown subcommand, an unknown flag and an unknown make target.
func TestDocsCheckersFail(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.md")
	bad := filepath.Join(dir, "bad.md")
	files := map[string]string{
		good: "# Good page\n\n## Result cache, in short\n",
		bad: "[ok](good.md#result-cache-in-short) [gone](missing.md) [no heading](good.md#nope) " +
			"[self](#there) `[not a link](nowhere.md)`\n\n## There\n\n```sh\n" +
			"talk2tables serve --config x.yaml --no-such-flag\n" +
			"./bin/talk2tables fly --fast\n" +
			"go run . catalog init --db a.db --out b.json \\\n  --bogus 1 | head -3\n" +
			"make run test nothing ADDR=:9000\n```\n",
	}
	read := func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	got := strings.Join(checkLinks([]string{good, bad}, read), "\n")
	for _, want := range []string{`"missing.md"`, `"good.md#nope"`} {
		if !strings.Contains(got, want) {
			t.Errorf("link check did not report %s; got:\n%s", want, got)
		}
	}
	if strings.Count(got, "\n")+1 != 2 {
		t.Errorf("link check: want exactly 2 problems, got:\n%s", got)
	}
	flags := map[string]map[string]bool{
		"serve":        {"config": true, "addr": true},
		"catalog init": {"db": true, "out": true},
	}
	targets := map[string]bool{"run": true, "test": true}
	got = strings.Join(checkCommands(bad, files[bad], flags, targets), "\n")
	for _, want := range []string{`--no-such-flag`, `"fly"`, `--bogus`, `"nothing"`} {
		if !strings.Contains(got, want) {
			t.Errorf("command check did not report %s; got:\n%s", want, got)
		}
	}
	if strings.Count(got, "\n")+1 != 4 {
		t.Errorf("command check: want exactly 4 problems, got:\n%s", got)
	}
}

var (
	linkRE       = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeSpanRE   = regexp.MustCompile("`+[^`]*`+")
	headingRE    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	flagTokenRE  = regexp.MustCompile(`^\[?(--?[A-Za-z][A-Za-z0-9_.-]*)`)
	makeTargetRE = regexp.MustCompile(`^([A-Za-z0-9_./-]+(?:[ \t]+[A-Za-z0-9_./-]+)*)[ \t]*:([^=]|$)`)
	defaultsRE   = regexp.MustCompile(`^\s+-([A-Za-z0-9_.-]+)`)
)

// prose returns the lines of a markdown document outside fenced code blocks,
// with inline code spans blanked; fenced returns the blocks (info string and
// lines).
func prose(doc string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			out = append(out, "")
			continue
		}
		if in {
			out = append(out, "")
			continue
		}
		out = append(out, codeSpanRE.ReplaceAllString(l, ""))
	}
	return out
}

type fence struct {
	info  string
	start int // line number of the first line inside the block
	lines []string
}

func fenced(doc string) []fence {
	var out []fence
	var cur *fence
	for i, l := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "```") {
			if cur == nil {
				cur = &fence{info: strings.TrimSpace(strings.TrimLeft(trimmed, "`")), start: i + 2}
			} else {
				out = append(out, *cur)
				cur = nil
			}
			continue
		}
		if cur != nil {
			cur.lines = append(cur.lines, l)
		}
	}
	return out
}

// anchor is GitHub's heading id: lowercase, punctuation other than '-' and
// '_' dropped, spaces to '-'.
func anchor(heading string) string {
	heading = codeSpanRE.ReplaceAllStringFunc(heading, func(s string) string { return strings.Trim(s, "`") })
	heading = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the heading ids of a document, with GitHub's -1, -2, ...
// suffixes for repeated headings.
func anchors(doc string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range prose(doc) {
		m := headingRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		a := anchor(m[1])
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// checkLinks reports every relative link of files that reaches no file, or
// no heading of a markdown file.
func checkLinks(files []string, read func(string) ([]byte, error)) []string {
	var problems []string
	cache := map[string]map[string]bool{}
	headings := func(path string) (map[string]bool, error) {
		if a, ok := cache[path]; ok {
			return a, nil
		}
		data, err := read(path)
		if err != nil {
			return nil, err
		}
		cache[path] = anchors(string(data))
		return cache[path], nil
	}
	for _, file := range files {
		data, err := read(file)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", file, err))
			continue
		}
		for i, l := range prose(string(data)) {
			for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, frag, _ := strings.Cut(target, "#")
				full := file
				if path != "" {
					full = filepath.Join(filepath.Dir(file), path)
					if _, err := read(full); err != nil {
						if _, serr := os.Stat(full); serr != nil {
							problems = append(problems, fmt.Sprintf("%s:%d: link %q: no such file %s", file, i+1, target, full))
							continue
						}
					}
				}
				if frag == "" || !strings.HasSuffix(full, ".md") {
					continue
				}
				a, err := headings(full)
				if err != nil {
					problems = append(problems, fmt.Sprintf("%s:%d: link %q: %v", file, i+1, target, err))
					continue
				}
				if !a[frag] {
					problems = append(problems, fmt.Sprintf("%s:%d: link %q: %s has no heading #%s", file, i+1, target, full, frag))
				}
			}
		}
	}
	return problems
}

// subcommandFlags runs every subcommand (and catalog's and verified's subcommands) with
// --help and reads the flags its real flag set prints.
func subcommandFlags(t testing.TB) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	read := func(name string, run func(context.Context, []string, stdio) error) {
		var buf bytes.Buffer
		_ = run(context.Background(), []string{"--help"}, stdio{in: strings.NewReader(""), out: &buf, err: &buf})
		flags := map[string]bool{"h": true, "help": true}
		for _, l := range strings.Split(buf.String(), "\n") {
			if m := defaultsRE.FindStringSubmatch(l); m != nil {
				flags[m[1]] = true
			}
		}
		if len(flags) == 2 && !groupCommand(name) {
			t.Fatalf("%s --help printed no flags:\n%s", name, buf.String())
		}
		out[name] = flags
	}
	for name, cmd := range commands {
		read(name, cmd.run)
	}
	for name, cmd := range catalogCommands {
		read("catalog "+name, cmd.run)
	}
	for name, cmd := range verifiedCommands {
		read("verified "+name, cmd.run)
	}
	return out
}

// groupCommand reports the subcommands whose own subcommands carry the flags.
func groupCommand(name string) bool { return name == "catalog" || name == "verified" }

// makeTargets reads the rule targets of a Makefile.
func makeTargets(t testing.TB, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "#") {
			continue
		}
		if m := makeTargetRE.FindStringSubmatch(l); m != nil {
			for _, name := range strings.Fields(m[1]) {
				out[name] = true
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no targets found", path)
	}
	return out
}

// shellLines joins continued lines and drops prompts and comments.
func shellLines(lines []string) []string {
	var out []string
	var cur strings.Builder
	for _, l := range lines {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "$ ")
		if strings.HasSuffix(l, `\`) {
			cur.WriteString(strings.TrimSuffix(l, `\`) + " ")
			continue
		}
		cur.WriteString(l)
		out = append(out, stripComment(cur.String()))
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, stripComment(cur.String()))
	}
	return out
}

// stripComment drops a '#' comment that starts a word outside quotes.
func stripComment(l string) string {
	var quote rune
	prev := ' '
	for i, r := range l {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && unicode.IsSpace(prev):
			return l[:i]
		}
		prev = r
	}
	return l
}

// segments splits a command line at &&, ||, ; and at a pipe into another
// command (a '|' between two flags is a synopsis's alternative).
func segments(l string) [][]string {
	var out [][]string
	var cur []string
	fields := strings.Fields(l)
	for i, f := range fields {
		split := f == "&&" || f == "||" || f == ";"
		if f == "|" {
			split = i+1 < len(fields) && !strings.HasPrefix(strings.TrimPrefix(fields[i+1], "["), "-")
			if !split {
				continue
			}
		}
		if split {
			out = append(out, cur)
			cur = nil
			continue
		}
		if strings.HasSuffix(f, ";") {
			cur = append(cur, strings.TrimSuffix(f, ";"))
			out = append(out, cur)
			cur = nil
			continue
		}
		cur = append(cur, f)
	}
	return append(out, cur)
}

func isTalk2tables(word string) bool {
	return word == "talk2tables" || strings.HasSuffix(word, "/talk2tables")
}

// checkCommands reports every fenced command line of doc that names an
// unknown subcommand, flag or make target.
func checkCommands(file, doc string, flags map[string]map[string]bool, targets map[string]bool) []string {
	var problems []string
	for _, f := range fenced(doc) {
		switch f.info {
		case "", "sh", "bash", "shell", "console":
		default:
			continue
		}
		for _, line := range shellLines(f.lines) {
			for _, words := range segments(line) {
				for len(words) > 0 && (strings.Contains(words[0], "=") || words[0] == "sudo") {
					words = words[1:] // VAR=value prefixes
				}
				if p := checkWords(words, flags, targets); p != "" {
					problems = append(problems, fmt.Sprintf("%s (block at line %d): %q: %s", file, f.start, line, p))
				}
			}
		}
	}
	return problems
}

func checkWords(words []string, flags map[string]map[string]bool, targets map[string]bool) string {
	if len(words) == 0 {
		return ""
	}
	var rest []string
	switch {
	case isTalk2tables(words[0]):
		rest = words[1:]
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == ".":
		rest = words[3:]
	case words[0] == "make":
		var unknown []string
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "-") || strings.Contains(w, "=") {
				continue
			}
			if !targets[w] {
				unknown = append(unknown, fmt.Sprintf("%q", w))
			}
		}
		if len(unknown) > 0 {
			return "the Makefile has no target " + strings.Join(unknown, ", ")
		}
		return ""
	default:
		return ""
	}
	if len(rest) == 0 || strings.HasPrefix(rest[0], "<") || strings.HasPrefix(rest[0], "-") {
		return "" // `talk2tables <command> --help`, `talk2tables --help`
	}
	name := rest[0]
	if _, ok := flags[name]; !ok {
		return fmt.Sprintf("no subcommand %q", name)
	}
	rest = rest[1:]
	if groupCommand(name) && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") && !strings.HasPrefix(rest[0], "<") {
		name += " " + rest[0]
		if _, ok := flags[name]; !ok {
			return fmt.Sprintf("no subcommand %q", name)
		}
		rest = rest[1:]
	}
	var unknown []string
	for _, w := range rest {
		m := flagTokenRE.FindStringSubmatch(w)
		if m == nil {
			continue
		}
		flag := strings.TrimLeft(m[1], "-")
		if !flags[name][flag] {
			unknown = append(unknown, m[1])
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Sprintf("talk2tables %s has no flag %s", name, strings.Join(unknown, ", "))
	}
	return ""
}
