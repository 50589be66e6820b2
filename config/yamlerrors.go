package config

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"talk2tables/catalog"
)

// yaml.v3's decoding errors name Go types and a line, not the key: "line 3:
// field prority not found in type orchestrator.ServerConfig", "line 7:
// cannot unmarshal !!str `abc` into int". explainDecodeError rewrites them
// for a person editing the file: the key's path, what the value is and what
// the key takes in YAML words, and the nearest known key for a typo.
var (
	unknownFieldRE = regexp.MustCompile(`^line (\d+): field (.+) not found in type (.+)$`)
	wrongTypeRE    = regexp.MustCompile("^line (\\d+): cannot unmarshal (!!\\w+)(?: `(.*)`)? into (.+)$")
)

// explainDecodeError returns a *ConfigError for a *yaml.TypeError (every
// problem, each with its path and line), and err unchanged otherwise.
func explainDecodeError(data []byte, err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil {
		return err
	}
	lines := indexLines(&root)
	problems := make([]string, 0, len(te.Errors))
	for _, msg := range te.Errors {
		problems = append(problems, explainOne(msg, lines))
	}
	return &ConfigError{Problems: problems}
}

// keyAt is the mapping key written on a line, with the path of its value.
type keyAt struct {
	path []string
}

// indexLines maps each line holding a mapping key, or a value, to the path
// of that key (the first one on the line).
func indexLines(root *yaml.Node) map[int]keyAt {
	out := map[int]keyAt{}
	var walk func(n *yaml.Node, path []string)
	walk = func(n *yaml.Node, path []string) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				p := append(append([]string(nil), path...), k.Value)
				if _, seen := out[k.Line]; !seen {
					out[k.Line] = keyAt{path: p}
				}
				// A block mapping's node starts on its first child's line,
				// which belongs to that child's key.
				if _, seen := out[v.Line]; !seen && v.Kind != yaml.MappingNode {
					out[v.Line] = keyAt{path: p}
				}
				walk(v, p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, append(append([]string(nil), path...), strconv.Itoa(i)))
			}
		}
	}
	walk(root, nil)
	return out
}

func explainOne(msg string, lines map[int]keyAt) string {
	if m := unknownFieldRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		key := m[2]
		at := lines[line].path
		parent := at
		if len(parent) > 0 {
			parent = parent[:len(parent)-1]
		}
		where := "at the top level"
		if len(parent) > 0 {
			where = "in " + strings.Join(parent, ".")
		}
		out := fmt.Sprintf("line %d: unknown key `%s` %s", line, key, where)
		known := keysOf(typeAt(reflect.TypeFor[Config](), parent))
		if near := nearest(key, known); near != "" {
			out += fmt.Sprintf("; did you mean `%s`?", near)
		} else if len(known) > 0 {
			out += fmt.Sprintf("; the keys there are %s", strings.Join(known, ", "))
		}
		return out
	}
	if m := wrongTypeRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		path := strings.Join(lines[line].path, ".")
		if path == "" {
			path = "the document"
		}
		got := yamlKind(m[2])
		if m[3] != "" {
			got = fmt.Sprintf("`%s` is %s", m[3], got)
		} else {
			got = "the value is " + got
		}
		return fmt.Sprintf("%s (line %d): %s, but it takes %s", path, line, got, goTypeWords(m[4]))
	}
	return strings.TrimPrefix(msg, "yaml: ")
}

// typeAt walks t along a path of YAML keys (map keys take the element type).
func typeAt(t reflect.Type, path []string) reflect.Type {
	for _, p := range path {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Map, reflect.Slice:
			t = t.Elem()
		case reflect.Struct:
			f, ok := fieldByYAML(t, p)
			if !ok {
				return nil
			}
			t = f.Type
		default:
			return nil
		}
	}
	return t
}

func fieldByYAML(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if name := strings.Split(f.Tag.Get("yaml"), ",")[0]; name == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// keysOf lists the YAML keys of a struct type, sorted.
func keysOf(t reflect.Type) []string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if name := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]; name != "" && name != "-" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// nearest returns the known key closest to a typo: within two edits (one for
// short keys), or the only key sharing three quarters of its beginning or
// ending with it.
func nearest(key string, known []string) string {
	best, bestD := "", 3
	if len(key) <= 4 {
		bestD = 2
	}
	for _, k := range known {
		if d := catalog.EditDistance(strings.ToLower(key), k, bestD); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		return best
	}
	// A word form of a known key ("max_retry" for "max_retries"): the one
	// key sharing most of its beginning.
	var hits []string
	for _, k := range known {
		n := commonPrefix(strings.ToLower(key), k)
		if len(key) >= 3 && (n*4 >= 3*min(len(key), len(k)) || strings.HasSuffix(k, key)) {
			hits = append(hits, k)
		}
	}
	if len(hits) == 1 {
		return hits[0]
	}
	return ""
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// yamlKind names a YAML tag in words.
func yamlKind(tag string) string {
	switch tag {
	case "!!str":
		return "text"
	case "!!int":
		return "a whole number"
	case "!!float":
		return "a number"
	case "!!bool":
		return "true/false"
	case "!!seq":
		return "a list"
	case "!!map":
		return "a mapping (key: value lines)"
	case "!!null":
		return "empty"
	}
	return "a " + strings.TrimPrefix(tag, "!!")
}

// goTypeWords says what a Go type named in a yaml.v3 error takes, in YAML
// words.
func goTypeWords(goType string) string {
	switch {
	case goType == reflect.TypeFor[time.Duration]().String():
		return "a duration such as 30s, 500ms or 2m"
	case goType == "bool":
		return "true or false"
	case goType == "string":
		return "text"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		return "a whole number"
	case strings.HasPrefix(goType, "float"):
		return "a number"
	case strings.HasPrefix(goType, "[]"):
		return "a list (e.g. [a, b] or lines starting with '- ')"
	case strings.HasPrefix(goType, "map["), strings.Contains(goType, "."):
		return "a mapping (indented key: value lines)"
	}
	return "another kind of value"
}
