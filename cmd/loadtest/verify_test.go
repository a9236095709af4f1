package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func inputsChanged(run string, length float64) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"run_id": run, "changed": map[string]any{"channel_length_m": length}})
	return b
}

func TestLostWrites(t *testing.T) {
	stream := []StoredEvent{
		{Version: 1, Type: "project.created"},
		{Version: 2, Type: "project.run_added"},
		{Version: 3, Type: "project.run_inputs_changed", Data: inputsChanged("r1", 12.5)},
		{Version: 4, Type: "project.run_calculated"},
		{Version: 5, Type: "project.run_calculated"},
		{Version: 6, Type: "project.saved"},
	}
	streams := map[string][]StoredEvent{"p1": stream}
	for _, c := range []struct {
		name string
		acks []Ack
		want []string // reasons, in order
	}{
		{"all there", []Ack{
			{Project: "p1", Version: 3, Kind: "edit", RunID: "r1", Length: 12.5},
			{Project: "p1", Version: 6, Kind: "save"},
		}, nil},
		{"version beyond the stream", []Ack{{Project: "p1", Version: 7, Kind: "save"}}, []string{"no event at version 7"}},
		{"project never stored", []Ack{{Project: "p2", Version: 1, Kind: "save"}}, []string{"no event at version 1"}},
		{"another event at the save's version", []Ack{{Project: "p1", Version: 5, Kind: "save"}}, []string{"not the save"}},
		{"another event at the edit's version", []Ack{{Project: "p1", Version: 4, Kind: "edit", RunID: "r1", Length: 12.5}}, []string{"not the edit"}},
		{"edit of another length", []Ack{{Project: "p1", Version: 3, Kind: "edit", RunID: "r1", Length: 13}}, []string{"did not set the length 13"}},
		{"edit of another run", []Ack{{Project: "p1", Version: 3, Kind: "edit", RunID: "r2", Length: 12.5}}, []string{"changed run r1, not r2"}},
		{"sorted by project and version", []Ack{
			{Project: "p1", Version: 9, Kind: "save"},
			{Project: "p1", Version: 8, Kind: "save"},
		}, []string{"version 8", "version 9"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			lost := LostWrites(c.acks, streams)
			if len(lost) != len(c.want) {
				t.Fatalf("LostWrites = %+v, want %d", lost, len(c.want))
			}
			for i, w := range c.want {
				if !strings.Contains(lost[i].Reason, w) {
					t.Fatalf("lost[%d] = %q, want it to say %q", i, lost[i].Reason, w)
				}
			}
		})
	}
}
