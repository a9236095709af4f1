package api

import (
	"testing"
	"time"

	"draindesign/domain/project"
)

// A version's message is built once per viewer and shared by the streams
// showing it to that viewer; another viewer or a newer version gets its own.
func TestLiveViewsSharedPerViewerAndVersion(t *testing.T) {
	p := project.FromEvents(project.New("p1", "ann-id", "ann", "GB", time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)))
	ann := project.Viewer{UserID: "ann-id"}
	admin := project.Viewer{UserID: "root", Admin: true}
	var lv liveViews
	m1, err := lv.message("p1", p, ann)
	if err != nil {
		t.Fatal(err)
	}
	if m2, _ := lv.message("p1", p, ann); m2 != m1 {
		t.Error("the same version for the same viewer was encoded again")
	}
	if m3, _ := lv.message("p1", p, admin); m3 == m1 {
		t.Error("another viewer got the first viewer's message")
	}
	newer := *p
	newer.Version++
	m4, _ := lv.message("p1", &newer, ann)
	if m4 == m1 {
		t.Error("a newer version got the older version's message")
	}
	// An older version asked late does not replace the newer one kept.
	if _, err := lv.message("p1", p, ann); err != nil {
		t.Fatal(err)
	}
	if m5, _ := lv.message("p1", &newer, ann); m5 != m4 {
		t.Error("the newer version's message was replaced by an older one's")
	}
}
