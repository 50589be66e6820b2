package draft

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"talk2tables/catalog"
	"talk2tables/internal/testfixture"
)

// checkGolden compares a draft with testdata/<name>.json; UPDATE_GOLDEN=1
// rewrites it.
func checkGolden(t testing.TB, name string, s *catalog.Semantic) {
	t.Helper()
	got, err := catalog.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", name+".json")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1 to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("draft differs from %s (UPDATE_GOLDEN=1 to accept):\n%s", path, firstDiff(got, want))
	}
	// Valid by construction: the strict loader takes the file as written.
	if _, err := catalog.Parse(path, got); err != nil {
		t.Errorf("the draft does not load: %v", err)
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b []byte) string {
	al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y []byte
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if !bytes.Equal(x, y) {
			return "line " + strconv.Itoa(i+1) + ":\n  got:  " + string(x) + "\n  want: " + string(y)
		}
	}
	return ""
}

func TestGoldenSample(t *testing.T) {
	s := draftOf(t, testfixture.SalesDB(t, 2000), Options{Database: "sales.db"})
	checkGolden(t, "sales", s)
}

func TestGoldenTrading(t *testing.T) {
	checkGolden(t, "trading", draftOf(t, tradingDB(t), Options{Database: "trading.db"}))
}

func TestGoldenRetail(t *testing.T) {
	checkGolden(t, "retail", draftOf(t, retailDB(t), Options{Database: "retail.db", MaxEntities: 40}))
}
