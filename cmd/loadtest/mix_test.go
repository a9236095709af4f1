package main

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMixPick(t *testing.T) {
	for _, c := range []struct {
		u    float64
		want Class
	}{
		{0, Small},
		{0.6999, Small},
		{0.70, Stepped},
		{0.9499, Stepped},
		{0.95, Long},
		{0.99999, Long},
	} {
		if got := DefaultMix.Pick(c.u); got != c.want {
			t.Errorf("Pick(%g) = %s, want %s", c.u, got, c.want)
		}
	}
}

// Drawn from a seeded generator, the shares come out as the mix says.
func TestMixShares(t *testing.T) {
	for _, m := range []Mix{DefaultMix, {Small: 50, Stepped: 50}, {Long: 100}} {
		rng := rand.New(rand.NewPCG(1, 2))
		const n = 100000
		count := map[Class]int{}
		for range n {
			count[m.Pick(rng.Float64())]++
		}
		for c, want := range map[Class]float64{Small: m.Small, Stepped: m.Stepped, Long: m.Long} {
			if got := 100 * float64(count[c]) / n; math.Abs(got-want) > 0.5 {
				t.Errorf("mix %+v: %s drawn %.2f %%, want %g %%", m, c, got, want)
			}
		}
	}
}

func TestMixValidate(t *testing.T) {
	for _, c := range []struct {
		m  Mix
		ok bool
	}{
		{DefaultMix, true},
		{Mix{Small: 100}, true},
		{Mix{Small: 70, Stepped: 25}, false},
		{Mix{Small: 110, Stepped: -10}, false},
	} {
		if err := c.m.Validate(); (err == nil) != c.ok {
			t.Errorf("Validate(%+v) = %v", c.m, err)
		}
	}
}

// Each class's runs have the lengths the issue names, and consecutive
// edits never set the same length (every edit must append an event).
func TestRunInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		class    Class
		min, max float64
		stepped  bool
	}{
		{Small, 10, 60, false},
		{Stepped, 100, 500, true},
		{Long, 2999, 3000, false},
	} {
		prev := -1.0
		for seq := 1; seq <= 500; seq++ {
			in := RunInputs(c.class, rng, seq)
			l := in["channel_length_m"].(float64)
			if l < c.min || l > c.max {
				t.Fatalf("%s: length %g outside [%g, %g]", c.class, l, c.min, c.max)
			}
			if l == prev {
				t.Fatalf("%s: edit %d repeats the length %g", c.class, seq, l)
			}
			prev = l
			if in["stepped"] != c.stepped {
				t.Fatalf("%s: stepped = %v", c.class, in["stepped"])
			}
		}
	}
}
