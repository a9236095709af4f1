package project

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// Events applied to a clone leave the original as it was: each kind of
// change Apply makes in place (inputs merged into a run's map, runs
// removed from the middle of the slice or reordered, settings replaced)
// is made to the clone only.
func TestCloneIsIndependent(t *testing.T) {
	rain := 50.0
	base := []Event{
		Created{ProjectID: "p", Owner: "u", OwnerName: "Ann", Country: "GB", At: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		DetailsChanged{Details: Details{Name: "Yard"}, Settings: Settings{RainfallUnits: "mm/hr", DefaultRainfall: &rain}},
		RunAdded{RunID: "r1", Name: "One", Inputs: Inputs{"channel_length_m": json.RawMessage(`20`)}},
		RunAdded{RunID: "r2", Name: "Two", Inputs: Inputs{"channel_length_m": json.RawMessage(`30`)}},
		RunAdded{RunID: "r3", Name: "Three"},
		RunCalculated{RunID: "r2", Inputs: Inputs{"channel_length_m": json.RawMessage(`30`)}, Summary: Summary{"overflowed": json.RawMessage(`false`)}},
	}
	later := []Event{
		RunInputsChanged{RunID: "r1", Changed: Inputs{"channel_length_m": json.RawMessage(`99`), "ground_slope": json.RawMessage(`0.01`)}},
		RunInputsChanged{RunID: "r2", Removed: []string{"channel_length_m"}},
		RunRemoved{RunID: "r2"},
		RunsReordered{RunIDs: []string{"r3", "r1"}},
		RunRenamed{RunID: "r3", Name: "Renamed"},
		DetailsChanged{Details: Details{Name: "Other"}, Settings: Settings{RainfallUnits: "l/s/ha"}},
		RunReset{RunID: "r1"},
	}
	original := FromEvents(base)
	clone := original.Clone()
	if !reflect.DeepEqual(clone, original) {
		t.Fatalf("a fresh clone differs:\n%+v\n%+v", clone, original)
	}
	for _, e := range later {
		clone.Apply(e)
	}
	if want := FromEvents(base); !reflect.DeepEqual(original, want) {
		t.Errorf("changing the clone changed the original:\n got %+v\nwant %+v", original, want)
	}
	if want := FromEvents(append(append([]Event{}, base...), later...)); !reflect.DeepEqual(clone, want) {
		t.Errorf("the clone after the later events differs from a fold of all of them:\n got %+v\nwant %+v", clone, want)
	}
	*original.Clone().Settings.DefaultRainfall = 1
	if *original.Settings.DefaultRainfall != 50 {
		t.Error("the clone shares the original's default rainfall")
	}
}
