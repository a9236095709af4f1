package design

import (
	"encoding/json"
	"fmt"
	"math"

	"draindesign/domain/catalogue"
)

// SharedRequest is the body of POST /drainage/calculate_shared/: two runs,
// one discharging into the other's trash box.
type SharedRequest struct {
	Main   *Request `json:"main"`
	Second *Request `json:"second"`
	// Raw keeps each run object as sent, for the inputs a project stores.
	Raw struct {
		Main   map[string]json.RawMessage `json:"main"`
		Second map[string]json.RawMessage `json:"second"`
	} `json:"-"`
}

// SharedAnswer holds each run's answer.
type SharedAnswer struct {
	Main   *Answer `json:"main"`
	Second *Answer `json:"second"`
}

// DecodeSharedRequest reads a shared calculation; both runs are required.
func DecodeSharedRequest(body []byte) (*SharedRequest, error) {
	var r SharedRequest
	if err := decodeInto(body, &r); err != nil {
		return nil, err
	}
	if r.Main == nil || r.Second == nil {
		return nil, &DecodeError{"A shared calculation needs the runs \"main\" and \"second\""}
	}
	if err := decodeInto(body, &r.Raw); err != nil {
		return nil, err
	}
	return &r, nil
}

// key is the identity another run refers to this one by.
func (r *Request) key() string {
	for _, id := range []string{r.RunID, string(r.SaveID), string(r.ID)} {
		if id != "" {
			return id
		}
	}
	return ""
}

// dischargesInto reports whether r sends its outflow into the trash box of
// the run with key k (outflowTrashbox holds a run id rather than a
// discharge).
func (r *Request) dischargesInto(k string) bool {
	if k == "" {
		return false
	}
	_, isNumber := r.OutflowTrashbox.Number()
	return !isNumber && string(r.OutflowTrashbox) == k
}

// takesFrom reports whether one of r's inflows comes from the run with key k.
func (r *Request) takesFrom(k string) bool {
	if k == "" {
		return false
	}
	for _, in := range r.Inflows {
		if !in.ToBeConfirmed && string(in.Source) == k {
			return true
		}
	}
	return false
}

// CalculateShared calculates two runs of which one discharges into the
// other's trash box. The main run discharges into the second unless the
// second names the main as the box its outflow goes into. The upstream run
// is calculated first; its discharge then enters the downstream run as a
// point inflow: through an inflow that names it as its source, or else at
// the downstream run's trash box (a placed trash box, or the one at its
// discharge end). A pair that would flow into each other is refused.
func CalculateShared(cat *catalogue.Catalogue, sr *SharedRequest) (*SharedAnswer, error) {
	m, s := sr.Main, sr.Second
	mk, sk := m.key(), s.key()
	if mk != "" && mk == sk {
		return nil, invalid("second", "The two runs of a shared calculation must be different runs")
	}
	mainUp := m.dischargesInto(sk) || s.takesFrom(mk)
	secondUp := s.dischargesInto(mk) || m.takesFrom(sk)
	self := m.dischargesInto(mk) || s.dischargesInto(sk) || m.takesFrom(mk) || s.takesFrom(sk)
	if mainUp && secondUp || self {
		return nil, invalid("second", "The runs would flow into each other: a circular chain cannot be calculated")
	}
	up, down, upKey := m, s, mk
	if secondUp {
		up, down, upKey = s, m, sk
	}
	upAns, err := Calculate(cat, up)
	if err != nil {
		return nil, sharedErr(up == m, err)
	}
	q := upAns.Results.ChannelDischarge
	if c := upAns.Results.Controlled; c != nil && c.Restricted {
		q = c.PeakOutflowLS // the orifice lets out no more
	}
	fed := *down
	fed.Inflows = append([]InflowInput(nil), down.Inflows...)
	sourced := false
	for i := range fed.Inflows {
		if !fed.Inflows[i].ToBeConfirmed && upKey != "" && string(fed.Inflows[i].Source) == upKey {
			fed.Inflows[i].FlowLPS = q
			sourced = true
		}
	}
	if !sourced {
		fed.Inflows = append(fed.Inflows, InflowInput{DistanceM: trashBoxChainage(down), FlowLPS: q, Source: ID(upKey)})
	}
	downAns, err := Calculate(cat, &fed)
	if err != nil {
		return nil, sharedErr(down == m, err)
	}
	if up == m {
		return &SharedAnswer{Main: upAns, Second: downAns}, nil
	}
	return &SharedAnswer{Main: downAns, Second: upAns}, nil
}

// trashBoxChainage is where a run's trash box stands, from the head: the
// first placed trash box nearest the head, else the discharge end.
func trashBoxChainage(r *Request) float64 {
	x := r.ChannelLengthM
	for _, a := range r.Accessories {
		if !a.ToBeConfirmed && a.Type == catalogue.AccessoryTrashBox && a.DistanceM >= 0 && a.DistanceM <= r.ChannelLengthM {
			x = math.Min(x, r.ChannelLengthM-a.DistanceM)
		}
	}
	if !(x >= 0) {
		return 0
	}
	return x
}

// SharedRunError says which run of a shared calculation failed.
type SharedRunError struct {
	Run string // "main" or "second"
	Err error
}

func (e *SharedRunError) Error() string { return fmt.Sprintf("%s run: %v", e.Run, e.Err) }
func (e *SharedRunError) Unwrap() error { return e.Err }

func sharedErr(main bool, err error) error {
	run := "second"
	if main {
		run = "main"
	}
	return &SharedRunError{Run: run, Err: err}
}
