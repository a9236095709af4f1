package main

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Ack is a write the server acknowledged (answered 200 with a version):
// an edit of a run's inputs, or a save.
type Ack struct {
	Project string
	Version int64
	// Kind is "edit" or "save".
	Kind string
	// RunID and Length identify an edit: the run and the channel length
	// it set.
	RunID  string
	Length float64
}

// StoredEvent is what the lost-write check reads of a project's stream.
type StoredEvent struct {
	Version int64
	Type    string
	Data    json.RawMessage
}

// Lost is an acknowledged write the store does not hold as acknowledged.
type Lost struct {
	Ack    Ack
	Reason string
}

// LostWrites checks every acknowledged write against the projects' streams
// as read back from the store: the event at the acknowledged version must
// exist and be that write (a save, or an inputs change of that run to that
// length).
func LostWrites(acks []Ack, streams map[string][]StoredEvent) []Lost {
	byVersion := make(map[string]map[int64]StoredEvent, len(streams))
	for p, evs := range streams {
		m := make(map[int64]StoredEvent, len(evs))
		for _, e := range evs {
			m[e.Version] = e
		}
		byVersion[p] = m
	}
	var lost []Lost
	for _, a := range acks {
		e, ok := byVersion[a.Project][a.Version]
		if !ok {
			lost = append(lost, Lost{a, fmt.Sprintf("no event at version %d", a.Version)})
			continue
		}
		if reason := mismatch(a, e); reason != "" {
			lost = append(lost, Lost{a, reason})
		}
	}
	sort.Slice(lost, func(i, j int) bool {
		if lost[i].Ack.Project != lost[j].Ack.Project {
			return lost[i].Ack.Project < lost[j].Ack.Project
		}
		return lost[i].Ack.Version < lost[j].Ack.Version
	})
	return lost
}

func mismatch(a Ack, e StoredEvent) string {
	switch a.Kind {
	case "save":
		if e.Type != "project.saved" {
			return fmt.Sprintf("version %d is %s, not the save", a.Version, e.Type)
		}
		return ""
	case "edit":
		if e.Type != "project.run_inputs_changed" {
			return fmt.Sprintf("version %d is %s, not the edit", a.Version, e.Type)
		}
		var d struct {
			RunID   string `json:"run_id"`
			Changed struct {
				Length *float64 `json:"channel_length_m"`
			} `json:"changed"`
		}
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return fmt.Sprintf("version %d unreadable: %v", a.Version, err)
		}
		if d.RunID != a.RunID {
			return fmt.Sprintf("version %d changed run %s, not %s", a.Version, d.RunID, a.RunID)
		}
		if d.Changed.Length == nil || *d.Changed.Length != a.Length {
			return fmt.Sprintf("version %d did not set the length %g", a.Version, a.Length)
		}
		return ""
	}
	return "unknown kind " + a.Kind
}
