package evaluation

import (
	"context"
	"testing"

	"talk2tables/catalog"
	"talk2tables/internal/fixtures"
)

// TestDrafted: the catalog init drafter gives every fixture of our own a
// catalog that loads strictly.
func TestDrafted(t *testing.T) {
	for _, name := range fixtures.Own() {
		t.Run(name, func(t *testing.T) {
			path, err := fixtures.Build(context.Background(), name, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			data, err := Drafted(context.Background(), path)
			if err != nil {
				t.Fatalf("Drafted: %v", err)
			}
			s, err := catalog.Parse(name+"-catalog.json", data)
			if err != nil {
				t.Fatalf("the draft does not load: %v", err)
			}
			if len(s.Tables) == 0 || len(s.Entities) == 0 {
				t.Errorf("draft of %s: %d tables, %d entity sets", name, len(s.Tables), len(s.Entities))
			}
		})
	}
}
