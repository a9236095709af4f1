package project

import (
	"testing"
	"time"
)

func TestAccess(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := func(extra ...Event) *Project {
		evs := append(New("p1", "owner", "Owner", "GB", at), RunAdded{RunID: "r1", Name: "Run 1"},
			Saved{SaveID: "p1", RunSaveIDs: []string{"r1"}, SavedBy: "owner", At: at})
		return FromEvents(append(evs, extra...))
	}
	owner := Viewer{UserID: "owner"}
	other := Viewer{UserID: "other"}
	admin := Viewer{UserID: "boss", Admin: true}
	support := Viewer{UserID: "support", SharedProjects: true}
	linkHolder := Viewer{UserID: "other", ShareID: "s1"}
	oldLink := Viewer{UserID: "other", ShareID: "s0"}
	cases := []struct {
		name        string
		p           *Project
		v           Viewer
		read, write bool
		// history: its versions, any version's content, a copy of one (undo
		// and restore are writes)
		history bool
	}{
		{"owner", base(), owner, true, true, true},
		{"another user", base(), other, false, false, false},
		{"anonymous", base(), Viewer{}, false, false, false},
		{"admin reads, never writes", base(), admin, true, false, true},
		{"support, not shared with provider", base(), support, false, false, false},
		{"support, shared with provider", base(Saved{SaveID: "p1", ShareWithProvider: true, SavedBy: "owner", At: at}), support, true, false, true},
		{"link holder", base(SharedByLink{ShareID: "s1"}), linkHolder, true, false, false},
		{"bare id is not a link", base(SharedByLink{ShareID: "s1"}), other, false, false, false},
		{"wrong link", base(SharedByLink{ShareID: "s1"}), oldLink, false, false, false},
		{"link after sharing stopped", base(SharedByLink{ShareID: "s1"}, SharingStopped{ShareID: "s1"}), linkHolder, false, false, false},
		{"re-shared gets a new link", base(SharedByLink{ShareID: "s1"}, SharingStopped{ShareID: "s1"}, SharedByLink{ShareID: "s2"}), linkHolder, false, false, false},
		{"deleted: owner", base(Deleted{At: at}), owner, false, false, false},
		{"deleted: admin", base(Deleted{At: at}), admin, true, false, true},
		{"deleted: link holder", base(SharedByLink{ShareID: "s1"}, Deleted{At: at}), linkHolder, false, false, false},
		{"never created", &Project{}, owner, false, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.CanRead(c.v); got != c.read {
				t.Errorf("CanRead = %v, want %v", got, c.read)
			}
			if got := c.p.CanReadHistory(c.v); got != c.history {
				t.Errorf("CanReadHistory = %v, want %v", got, c.history)
			}
			if got := c.p.CanWrite(c.v); got != c.write {
				t.Errorf("CanWrite = %v, want %v", got, c.write)
			}
		})
	}
}

func TestStopSharing(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := FromEvents(append(New("p1", "owner", "Owner", "GB", at), RunAdded{RunID: "r1", Name: "Run 1"},
		Saved{SaveID: "p1", SavedBy: "owner", At: at}))
	if evs, err := p.StopSharing(); err != nil || len(evs) != 0 {
		t.Fatalf("stop sharing an unshared project = %v, %v; want nothing", evs, err)
	}
	evs, id, err := p.ShareByLink("s1")
	if err != nil || id != "s1" {
		t.Fatalf("share: %v %v", id, err)
	}
	for _, e := range evs {
		p.Apply(e)
	}
	evs, err = p.StopSharing()
	if err != nil || len(evs) != 1 {
		t.Fatalf("stop sharing = %v, %v", evs, err)
	}
	p.Apply(evs[0])
	if p.ShareID != "" {
		t.Fatalf("share id still %q", p.ShareID)
	}
	_, id, _ = p.ShareByLink("s2")
	if id != "s2" {
		t.Fatalf("sharing again gives %q, want a new link", id)
	}
}
