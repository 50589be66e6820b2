package catalog

import (
	"strings"
	"testing"
)

func TestSegmenter(t *testing.T) {
	s := NewSegmenter([]string{"kiosk", "vendor", "stallrent", "Lease_Line"},
		[]string{"kioskname", "opened_on", "vendorid", "staff_no"})
	for _, c := range []struct {
		ident string
		hint  SegmentHint
		want  string
	}{
		{"kioskname", SegmentPlain, "kiosk name"},
		{"vendortype", SegmentPlain, "vendor type"},
		{"firstyear", SegmentPlain, "first year"},
		{"packedby", SegmentPlain, "packed by"},
		{"handedoutby", SegmentPlain, "handed out by"},
		{"leaseline", SegmentPlain, "lease line"},
		{"vendorid", SegmentKey, "vendor id"},
		{"kkid", SegmentKey, "kk id"},
		{"kksize", SegmentPlain, "kksize"}, // "kk" is learned only from a key
		{"hasawning", SegmentFlag, "has awning"},
		{"island", SegmentPlain, "island"},
		{"island", SegmentKey, "island"},
		{"season", SegmentPlain, "season"},
		{"candidate", SegmentPlain, "candidate"},
		{"account", SegmentPlain, "account"},
		{"giftaid", SegmentPlain, "giftaid"},
		{"kiosk", SegmentPlain, "kiosk"},
		{"stallrent", SegmentPlain, "stallrent"}, // a table's own name stays whole
		{"vendorline", segmentName, "vendor line"},
		{"kiosk", segmentName, "kiosk"},
		{"OrderDate", SegmentPlain, "order date"},
		{"surname", SegmentPlain, "surname"},
		{"paid", SegmentKey, "paid"},
		{"fluid", SegmentKey, "fluid"},
		{"volid", SegmentKey, "vol id"},
	} {
		if got := strings.Join(s.Words(c.ident, c.hint), " "); got != c.want {
			t.Errorf("Words(%q, %d) = %q, want %q", c.ident, c.hint, got, c.want)
		}
	}
	var nilSeg *Segmenter
	if got := nilSeg.Phrase("kioskname", SegmentPlain); got != "kioskname" {
		t.Errorf("a nil Segmenter splits nothing, got %q", got)
	}
}
