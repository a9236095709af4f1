package design

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"draindesign/domain/catalogue"
	"draindesign/domain/project"
)

// A project stores only results the server calculated: a save's runs are
// recalculated from their inputs here, never taken from the client. This
// package imports domain/project (its Inputs, Settings and Summary), never
// the other way round: the aggregate is told how to verify through
// project.Verifier.

// SummaryOf calculates one run alone from its inputs as a project holds
// them (with the defaults of project.Effective) and returns the summary a
// project stores. Its errors are those of Calculate: a *ValidationError,
// *LengthMismatchError or *DecodeError for inputs the calculation refuses, a
// *CalculationError when no design could be made, anything else a defect.
func SummaryOf(cat *catalogue.Catalogue, in project.Inputs, s project.Settings) (project.Summary, error) {
	r, err := requestOf(in, s, "")
	if err != nil {
		return nil, err
	}
	a, err := Calculate(cat, r)
	if err != nil {
		return nil, err
	}
	return summaryOf(a.Results)
}

// Verifier is the project.Verifier of a save. For each run it reuses the
// summary of the project's own earlier calculation when the run's inputs
// decode to the same request (so the engine would answer the same) and
// every run feeding it is reused too; otherwise it calculates the run: alone,
// or, when exactly one other run of the save discharges into it, together
// with that run (CalculateShared). A run the calculation refuses gets no
// summary, which makes the save ask for it to be calculated. A run fed by a
// run the save does not identify (or by several) cannot be checked and
// refuses the save with a *project.ValidationError saying so.
//
// calculate, when set, runs each calculation the save makes (none when
// every run is reused), so that the caller can wait for a core before the
// first and choose the thread; its error ends the save. Nil calls them in
// place.
func Verifier(cat *catalogue.Catalogue, calculate func(func()) error) project.Verifier {
	if calculate == nil {
		calculate = func(f func()) error { f(); return nil }
	}
	return func(c project.Content, held func(int) (project.Held, bool)) ([]project.Summary, error) {
		return verifySave(cat, c, held, calculate)
	}
}

// savedRun is one run of a save as the verifier sees it.
type savedRun struct {
	name        string
	key         string   // the id other runs name it by: its save id
	req         *Request // nil: the inputs do not decode
	held        *Request // the project's earlier calculation, if any
	heldSummary project.Summary
	feeders     []int // runs of the save discharging into this one
	unknownFeed bool  // an inflow comes from a run the save does not hold
}

func verifySave(cat *catalogue.Catalogue, c project.Content, held func(int) (project.Held, bool), calculate func(func()) error) ([]project.Summary, error) {
	runs := make([]savedRun, len(c.Runs))
	keys := map[string]bool{}
	for i, sr := range c.Runs {
		run := &runs[i]
		run.name, run.key = sr.Name, sr.ID
		keys[sr.ID] = sr.ID != ""
		run.req, _ = requestOf(sr.Inputs, c.Settings, sr.ID)
		if h, ok := held(i); ok {
			if r, err := requestOf(h.Inputs, c.Settings, sr.ID); err == nil {
				run.held, run.heldSummary = r, h.Summary
			}
		}
	}
	// A run that sends its outflow to a run the save does not name may feed
	// any run without an id (a save as new sends none): those cannot be
	// checked.
	dangling := false
	for i := range runs {
		r := runs[i].req
		if r == nil {
			continue
		}
		if box := string(r.OutflowTrashbox); box != "" && !isNumber(r.OutflowTrashbox) && !keys[box] {
			dangling = true
		}
		for _, in := range r.Inflows {
			if !in.ToBeConfirmed && in.Source != "" && (!keys[string(in.Source)] || string(in.Source) == runs[i].key) {
				runs[i].unknownFeed = true
			}
		}
		for j := range runs {
			if o := runs[j].req; i != j && o != nil && (o.dischargesInto(runs[i].key) || r.takesFrom(runs[j].key)) {
				runs[i].feeders = append(runs[i].feeders, j)
			}
		}
	}

	reused := make([]int, len(runs)) // 0 unknown, 1 reused, 2 not, 3 deciding
	var reusable func(i int) bool
	reusable = func(i int) bool {
		switch reused[i] {
		case 1:
			return true
		case 2, 3:
			return false
		}
		reused[i] = 3
		run := &runs[i]
		ok := run.req != nil && run.held != nil && reflect.DeepEqual(*run.req, *run.held)
		for _, j := range run.feeders {
			ok = ok && reusable(j)
		}
		reused[i] = 2
		if ok {
			reused[i] = 1
		}
		return ok
	}

	out := make([]project.Summary, len(runs))
	for i := range runs {
		run := &runs[i]
		if reusable(i) {
			out[i] = run.heldSummary
			continue
		}
		if run.req == nil {
			continue // undecodable inputs: not calculable
		}
		if run.unknownFeed || (dangling && run.key == "") {
			return nil, &project.ValidationError{Message: fmt.Sprintf(
				"The results of run %q depend on the outflow of a run this save does not identify, so they cannot be checked: calculate the runs together, then save over the project", run.name)}
		}
		if len(run.feeders) > 1 {
			return nil, &project.ValidationError{Message: fmt.Sprintf(
				"Run %q takes the outflow of more than one run, which cannot be calculated together: calculate it again, then save", run.name)}
		}
		var res *Results
		var err error
		if waited := calculate(func() { res, err = calculateSaved(cat, runs, i) }); waited != nil {
			return nil, waited
		}
		switch {
		case err == nil:
			if out[i], err = summaryOf(res); err != nil {
				return nil, err
			}
		case !refused(err):
			return nil, fmt.Errorf("verify run %q: %w", run.name, err)
		}
	}
	return out, nil
}

// calculateSaved calculates run i of a save: alone, or with the one run
// feeding it.
func calculateSaved(cat *catalogue.Catalogue, runs []savedRun, i int) (*Results, error) {
	run := &runs[i]
	if len(run.feeders) == 1 {
		ans, err := CalculateShared(cat, &SharedRequest{Main: runs[run.feeders[0]].req, Second: run.req})
		if err != nil {
			return nil, err
		}
		return ans.Second.Results, nil
	}
	ans, err := Calculate(cat, run.req)
	if err != nil {
		return nil, err
	}
	return ans.Results, nil
}

// requestOf decodes a run's effective inputs as a calculation request;
// key becomes the run's identity for shared calculations.
func requestOf(in project.Inputs, s project.Settings, key string) (*Request, error) {
	eff := project.Effective(in, s)
	for _, k := range []string{"project_id", "run_id", "id", "saveID"} {
		delete(eff, k)
	}
	b, err := json.Marshal(eff)
	if err != nil {
		return nil, &DecodeError{Message: "The run's inputs are not valid JSON"}
	}
	r, err := DecodeRequest(b)
	if err != nil {
		return nil, err
	}
	r.ProjectID, r.RunID, r.ID, r.SaveID = "", key, "", ""
	return r, nil
}

func isNumber(id ID) bool {
	_, ok := id.Number()
	return ok
}

// refused reports whether a calculation error is the calculation's answer
// about the inputs rather than a defect.
func refused(err error) bool {
	var ve *ValidationError
	var lm *LengthMismatchError
	var ce *CalculationError
	var de *DecodeError
	return errors.As(err, &ve) || errors.As(err, &lm) || errors.As(err, &ce) || errors.As(err, &de)
}

func summaryOf(res *Results) (project.Summary, error) {
	s, err := Summary(res)
	if err != nil {
		return nil, err
	}
	return project.Summary(s), nil
}
