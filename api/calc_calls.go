package api

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"draindesign/api/usecase"
	"draindesign/domain/design"
	"draindesign/domain/fault"
	"draindesign/domain/project"
	"draindesign/metrics"
)

// The calculation calls. The design package does the work; a run that
// belongs to a project (project_id and run_id in the body) also gets its
// outcome appended to the project's stream before the answer: "run
// calculated" with the inputs and the results, or "calculation failed"
// when no design could be made. A request refused by the validation rules
// (or not even readable) is the client's to fix and changes nothing.

// readBody reads a request body of at most maxBody bytes.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	return b, bodyError(err)
}

func (s *Server) calculate(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	req, err := design.DecodeRequest(body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := usecase.MayCalculate(actorOf(r), req); err != nil {
		s.fail(w, r, err)
		return
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(body, &raw) // an object: DecodeRequest made sure
	if _, err := requestIDOf(raw); err != nil {
		s.fail(w, r, err)
		return
	}
	loaded, err := s.checkProjectRun(r, req, raw)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.withdrawnChannels(r, req); err != nil {
		s.fail(w, r, err)
		return
	}
	if !s.heavyStart(w, r) {
		return
	}
	started := time.Now()
	var ans *design.Answer
	var calcErr error
	s.cfg.Calculations.Run(func() { ans, calcErr = design.Calculate(s.catalogue(), req) })
	took := time.Since(started)
	heavyDone(r) // recording waits on the store, not on a core
	metrics.Calculation("run", took, calcErr)
	var res *design.Results
	if ans != nil {
		res = ans.Results
	}
	if err := s.recordCalculation(r, req, raw, loaded, res, calcErr, took); err != nil {
		s.fail(w, r, err)
		return
	}
	if calcErr != nil {
		s.fail(w, r, calcErr)
		return
	}
	s.writeAnswer(w, r, ans)
}

func (s *Server) calculateShared(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	sr, err := design.DecodeSharedRequest(body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := usecase.MayCalculate(actorOf(r), sr.Main, sr.Second); err != nil {
		s.fail(w, r, err)
		return
	}
	loaded := map[*design.Request]*project.Project{}
	for _, side := range []struct {
		req *design.Request
		raw map[string]json.RawMessage
	}{{sr.Main, sr.Raw.Main}, {sr.Second, sr.Raw.Second}} {
		if _, err := requestIDOf(side.raw); err != nil {
			s.fail(w, r, err)
			return
		}
		p, err := s.checkProjectRun(r, side.req, side.raw)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		loaded[side.req] = p
		if err := s.withdrawnChannels(r, side.req); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if !s.heavyStart(w, r) {
		return
	}
	started := time.Now()
	var ans *design.SharedAnswer
	var calcErr error
	s.cfg.Calculations.Run(func() { ans, calcErr = design.CalculateShared(s.catalogue(), sr) })
	took := time.Since(started)
	heavyDone(r)
	metrics.Calculation("shared", took, calcErr)
	sides := []struct {
		name string
		req  *design.Request
		raw  map[string]json.RawMessage
		ans  func() *design.Answer
	}{
		{"main", sr.Main, sr.Raw.Main, func() *design.Answer { return ans.Main }},
		{"second", sr.Second, sr.Raw.Second, func() *design.Answer { return ans.Second }},
	}
	for _, side := range sides {
		var res *design.Results
		switch {
		case calcErr == nil:
			res = side.ans().Results
		case failedRun(calcErr) != side.name:
			continue // the other run failed; this one was not calculated
		}
		if err := s.recordCalculation(r, side.req, side.raw, loaded[side.req], res, calcErr, took); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if calcErr != nil {
		s.fail(w, r, calcErr)
		return
	}
	s.writeAnswer(w, r, ans)
}

// answerBuffers keep the buffers calculation answers are encoded into
// from one call to the next: the longest answer is about a megabyte, and a
// new buffer of that size, allocated, cleared and collected on every call,
// cost about as much as writing the answer into it.
var answerBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledAnswer is the largest buffer kept for the next answer (a shared
// calculation of two of the longest runs takes about 2 MB).
const maxPooledAnswer = 4 << 20

// jsonAppender is an answer that appends its own JSON encoding.
type jsonAppender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// writeAnswer writes a calculation's answer as writeJSON would, the same
// bytes, but with the answer's own encoder (design's AppendJSON), which
// writes the profile slices several times faster than encoding/json. A
// failed encoding is answered as a failure, not as an empty success.
func (s *Server) writeAnswer(w http.ResponseWriter, r *http.Request, ans jsonAppender) {
	buf := answerBuffers.Get().(*[]byte)
	b, err := ans.AppendJSON((*buf)[:0])
	if err != nil {
		answerBuffers.Put(buf)
		s.fail(w, r, err)
		return
	}
	b = append(b, '\n') // as json.Encoder ends a value
	w.Header().Set("Content-Type", "application/json")
	// The whole answer is in hand: its length tells a client how much is
	// coming (a progress bar for a 3000 m run's megabyte, a buffer sized
	// once) where chunked encoding would not.
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
	if cap(b) <= maxPooledAnswer {
		*buf = b
		answerBuffers.Put(buf)
	}
}

// withdrawnChannels tells the calculation which channel types of the run's
// system are not offered in the user's country, so that standard mode
// does not choose them. A system withdrawn as a whole is still calculated:
// its designs made before stay calculable; it is only not offered for new
// ones (the product list).
func (s *Server) withdrawnChannels(r *http.Request, req *design.Request) error {
	system := req.ChannelGroup
	if system == "" && req.SelectedSystem != nil {
		system = req.SelectedSystem.Slug
	}
	if system == "" {
		return nil
	}
	w, err := s.withdrawn(r.Context(), currentUser(r).Country)
	if err != nil {
		return err
	}
	for sub := range w.Channels[system] {
		req.WithdrawnChannels = append(req.WithdrawnChannels, sub)
	}
	return nil
}

// failedRun names the run of a shared calculation an error belongs to.
func failedRun(err error) string {
	var sre *design.SharedRunError
	if errors.As(err, &sre) {
		return sre.Run
	}
	return ""
}

func (s *Server) materials(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	req, err := design.DecodeMaterialsRequest(body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	m, err := design.Materials(s.catalogue(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// checkProjectRun makes sure a calculation naming a project run may record
// in it (the use case applies the project's access rules and input bounds),
// and gives the project as loaded for the check (nil for a run of no
// project), from which the record then starts.
func (s *Server) checkProjectRun(r *http.Request, req *design.Request, raw map[string]json.RawMessage) (*project.Project, error) {
	if req.ProjectID == "" && req.RunID == "" {
		return nil, nil
	}
	return s.projects.CheckRun(r.Context(), actorOf(r), req.ProjectID, req.RunID, runInputs(raw))
}

// runInputs are a calculation request's fields as a run stores them: all
// but the project identity.
func runInputs(raw map[string]json.RawMessage) project.Inputs {
	in := make(map[string]json.RawMessage, len(raw))
	for k, v := range raw {
		if k != "project_id" && k != "run_id" && k != "request_id" {
			in[k] = v
		}
	}
	return project.InputsFrom(in)
}

// requestIDOf is the calculation request's request_id: the client's name
// for it, the same when it sends the request again after the answer was
// lost, so that the calculation is recorded once (usecase.Outcome). It is
// optional, a string of at most 100 characters; for a shared calculation
// each run's part carries it.
func requestIDOf(raw map[string]json.RawMessage) (string, error) {
	v, ok := raw["request_id"]
	if !ok || string(v) == "null" {
		return "", nil
	}
	var id string
	if err := json.Unmarshal(v, &id); err != nil {
		return "", fault.New(fault.BadInput, `Field "request_id" must be a string`)
	}
	return id, usecase.CheckRequestID(id)
}

// recordCalculation appends the outcome of a project run's calculation.
// The inputs stored are the request's fields, less its project identity.
// took is the calculation's run time (of both runs, for a shared one).
func (s *Server) recordCalculation(r *http.Request, req *design.Request, raw map[string]json.RawMessage, loaded *project.Project, res *design.Results, calcErr error, took time.Duration) error {
	if req.ProjectID == "" || !recordable(calcErr) {
		return nil
	}
	requestID, err := requestIDOf(raw)
	if err != nil {
		return err
	}
	o := usecase.Outcome{ProjectID: req.ProjectID, RunID: req.RunID, Inputs: runInputs(raw), Took: took, Loaded: loaded, RequestID: requestID}
	if calcErr != nil {
		o.Failure = failureText(calcErr)
	} else {
		var err error
		if o.Summary, err = design.Summary(res); err != nil {
			return err
		}
	}
	return s.projects.RecordCalculation(r.Context(), actorOf(r), o)
}

// recordable: a calculation was made, successful or not. Requests refused
// before calculating are not.
func recordable(err error) bool {
	var dv *design.ValidationError
	var dl *design.LengthMismatchError
	var dd *design.DecodeError
	return !errors.As(err, &dv) && !errors.As(err, &dl) && !errors.As(err, &dd)
}

func failureText(err error) string {
	var ce *design.CalculationError
	if errors.As(err, &ce) {
		return ce.Message
	}
	return "The calculation failed: " + msgServerError
}
