package storage

import (
	"testing"

	"draindesign/domain/catalogue"
	"draindesign/domain/rainfall"
)

// leeds is the run's rainfall as the map gives it for Leeds (53.80,
// -1.55): 30 minutes, 30 years, no uplift, with the table's 5, 15 and 60
// minute rows as the three rates.
func leeds(t testing.TB) Rainfall {
	t.Helper()
	a, err := rainfall.Default().Find(rainfall.Query{Latitude: 53.80, Longitude: -1.55, StormDuration: 30, ReturnPeriod: 30})
	if err != nil {
		t.Fatal(err)
	}
	return Rainfall{
		MMPerHour: a.RainfallIntensity, StormMin: 30, M5: a.M5, R: a.R, ReturnPeriod: 30, Region: a.Region,
		R5: a.Intensity[0].MMPerHour, R15: a.Intensity[2].MMPerHour, R60: a.Intensity[4].MMPerHour,
	}
}

// typical is the brief's typical run: 50 m of the high-capacity channel
// draining 1500 m² of pavement at 5 l/s.
func typical(t testing.TB) Request {
	return Request{Rainfall: leeds(t), ChannelLengthM: 50, CatchmentAreaM2: 1500, Permeability: 1, ControlledOutflowLS: 5}
}

func mustCalc(t testing.TB, req Request) *designed {
	t.Helper()
	d, err := calculate(catalogue.Default(), req)
	if err != nil {
		t.Fatalf("calculate %+v: %v", req, err)
	}
	return d
}

func hicap(t testing.TB, slug string) Section {
	t.Helper()
	ch, err := catalogue.Default().Channel(slug)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sectionOf(ch)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func near(got, want, rel float64) bool {
	d := got - want
	if d < 0 {
		d = -d
	}
	w := want
	if w < 0 {
		w = -w
	}
	return d <= rel*w
}
