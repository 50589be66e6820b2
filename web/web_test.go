package web

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"testing"
)

var (
	htmlRefRE   = regexp.MustCompile(`(?:src|href)="([^"]*)"`)
	importRE    = regexp.MustCompile(`(?m)^\s*import\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]`)
	cssURLRE    = regexp.MustCompile(`url\(\s*['"]?([^'")]+)['"]?\s*\)`)
	externalRE  = regexp.MustCompile(`(?i)\b(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[/"'\s)]`)
	allowedURLs = []string{"http://www.w3.org/2000/svg"} // XML namespace, never fetched
)

func readFile(tb testing.TB, name string) string {
	tb.Helper()
	b, err := fs.ReadFile(Files, name)
	if err != nil {
		tb.Fatalf("read %s: %v", name, err)
	}
	if len(b) == 0 {
		tb.Fatalf("%s is empty", name)
	}
	return string(b)
}

// localRef reports whether ref names a file of ours (not a fragment, data: URL, ...).
func localRef(ref string) bool {
	return ref != "" && !strings.HasPrefix(ref, "#") && !strings.HasPrefix(ref, "data:") &&
		!strings.HasPrefix(ref, "mailto:")
}

func TestIndexReferencesExistingAssets(t *testing.T) {
	index := readFile(t, "index.html")
	refs := htmlRefRE.FindAllStringSubmatch(index, -1)
	if len(refs) == 0 {
		t.Fatal("index.html references no assets")
	}
	want := map[string]bool{"app.js": false, "style.css": false}
	for _, m := range refs {
		ref := m[1]
		if !localRef(ref) {
			continue
		}
		if strings.Contains(ref, "://") || strings.HasPrefix(ref, "//") {
			t.Errorf("index.html references external %q; the UI must work offline", ref)
			continue
		}
		name := strings.TrimPrefix(path.Clean(ref), "/")
		if _, err := fs.Stat(Files, name); err != nil {
			t.Errorf("index.html references %q: %v", ref, err)
		}
		if _, ok := want[name]; ok {
			want[name] = true
		}
	}
	for name, seen := range want {
		if !seen {
			t.Errorf("index.html does not reference %s", name)
		}
	}
}

func TestEveryReferencedAssetExists(t *testing.T) {
	seen := map[string]bool{}
	var walk func(name, from string)
	walk = func(name, from string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if _, err := fs.Stat(Files, name); err != nil {
			t.Errorf("%s references %s, which is not embedded: %v", from, name, err)
			return
		}
		text := readFile(t, name)
		var refs [][]string
		switch path.Ext(name) {
		case ".html":
			refs = htmlRefRE.FindAllStringSubmatch(text, -1)
		case ".js":
			refs = importRE.FindAllStringSubmatch(text, -1)
		case ".css":
			refs = cssURLRE.FindAllStringSubmatch(text, -1)
		}
		for _, m := range refs {
			if localRef(m[1]) && !strings.Contains(m[1], "://") {
				walk(path.Join(path.Dir(name), m[1]), name)
			}
		}
	}
	walk("index.html", "(root)")
	for _, name := range []string{"app.js", "sse.js", "format.js", "chart.js", "style.css"} {
		if !seen[name] {
			t.Errorf("%s is not reachable from index.html", name)
		}
	}

	// Every embedded file is used: nothing stale ships in the binary.
	err := fs.WalkDir(Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !seen[p] {
			t.Errorf("%s is embedded but nothing references it", p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk embedded files: %v", err)
	}
}

func TestNoExternalRequests(t *testing.T) {
	err := fs.WalkDir(Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		text := readFile(t, p)
		for _, ok := range allowedURLs {
			text = strings.ReplaceAll(text, ok, "")
		}
		if m := externalRE.FindString(text); m != "" {
			t.Errorf("%s contains external URL %q; the UI must not reach the network", p, m)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk embedded files: %v", err)
	}
}

func TestServedWithUsableTypes(t *testing.T) {
	srv := httptest.NewServer(http.FileServerFS(Files))
	defer srv.Close()
	tests := []struct {
		name     string
		path     string
		wantType string
		wantBody string
	}{
		{name: "index", path: "/", wantType: "text/html", wantBody: `<script type="module" src="app.js">`},
		{name: "module", path: "/app.js", wantType: "text/javascript", wantBody: "from './sse.js'"},
		{name: "stylesheet", path: "/style.css", wantType: "text/css", wantBody: "prefers-color-scheme: dark"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := http.Get(srv.URL + tt.path)
			if err != nil {
				t.Fatalf("GET %s: %v", tt.path, err)
			}
			defer res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s status = %d, want 200", tt.path, res.StatusCode)
			}
			// Browsers refuse module scripts served with a non-JavaScript type.
			if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, tt.wantType) {
				t.Errorf("GET %s Content-Type = %q, want %s", tt.path, got, tt.wantType)
			}
			body, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatalf("read body: %v", err)
			}
			if !strings.Contains(string(body), tt.wantBody) {
				t.Errorf("GET %s body lacks %q", tt.path, tt.wantBody)
			}
		})
	}
}
