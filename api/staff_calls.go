package api

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"draindesign/api/usecase"
	"draindesign/domain/account"
	"draindesign/projections/calcaudit"
	"draindesign/projections/userlist"

	"github.com/go-chi/chi/v5"
)

func (s *Server) staffUsers(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	users, err := s.queries.Users(r.Context(), actorOf(r), userlist.Filter{Search: q.Get("search"), HideBlocked: q.Get("hide_blocked") == "true" || q.Get("hide_blocked") == "1"})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, users)
}

func (s *Server) staffUserProjects(w http.ResponseWriter, r *http.Request) {
	items, err := s.queries.ProjectsOf(r.Context(), actorOf(r), chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, items)
}

// staffAction runs a staff use case on the user in the path; the domain
// decides whether the acting staff member may.
func (s *Server) staffAction(w http.ResponseWriter, r *http.Request, act func(r *http.Request, id string) (*account.Account, error)) {
	a, err := act(r, chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": a.ID, "blocked": a.Blocked, "group": a.Group, "deleted": a.Deleted})
}

func (s *Server) staffBlock(w http.ResponseWriter, r *http.Request) {
	s.staffAction(w, r, func(r *http.Request, id string) (*account.Account, error) {
		return s.accounts.Block(r.Context(), actorOf(r), id)
	})
}

func (s *Server) staffUnblock(w http.ResponseWriter, r *http.Request) {
	s.staffAction(w, r, func(r *http.Request, id string) (*account.Account, error) {
		return s.accounts.Unblock(r.Context(), actorOf(r), id)
	})
}

func (s *Server) staffDelete(w http.ResponseWriter, r *http.Request) {
	s.staffAction(w, r, func(r *http.Request, id string) (*account.Account, error) {
		return s.accounts.DeleteUser(r.Context(), actorOf(r), id)
	})
}

func (s *Server) staffGroup(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Group string `json:"group"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	g, err := account.ParseGroup(in.Group)
	if err != nil {
		s.fail(w, r, badRequestf("Unknown permission group %q", in.Group))
		return
	}
	s.staffAction(w, r, func(r *http.Request, id string) (*account.Account, error) {
		return s.accounts.ChangeGroup(r.Context(), actorOf(r), id, g)
	})
}

func (s *Server) staffCalculations(w http.ResponseWriter, r *http.Request) {
	limit := 200
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			s.fail(w, r, badRequestf("limit must be a number from 1 to 5000"))
			return
		}
		limit = n
	}
	rows, err := s.queries.Calculations(r.Context(), actorOf(r), r.URL.Query().Get("user"), limit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rows)
}

// pageOf reads offset and limit (defaults 0 and def).
func pageOf(r *http.Request, def int) (offset, limit int, err error) {
	q := r.URL.Query()
	offset, limit = 0, def
	if v := q.Get("offset"); v != "" {
		if offset, err = strconv.Atoi(v); err != nil {
			return 0, 0, badRequestf("offset must be a whole number")
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil {
			return 0, 0, badRequestf("limit must be a whole number")
		}
	}
	return offset, limit, nil
}

func truthy(v string) bool { return v == "true" || v == "1" }

// instant reads a moment: RFC 3339, or a date (its start, UTC).
func instant(r *http.Request, name string) (time.Time, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	return time.Time{}, badRequestf("%s must be a date (2006-01-02) or a time (RFC 3339)", name)
}

// staffSummary is the staff home's counts; since (the start of the
// staff member's day) defaults to the start of today, UTC.
func (s *Server) staffSummary(w http.ResponseWriter, r *http.Request) {
	since, err := instant(r, "since")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if since.IsZero() {
		since = s.cfg.Now().UTC().Truncate(24 * time.Hour)
	}
	sum, err := s.queries.StaffSummary(r.Context(), actorOf(r), since)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, sum)
}

// staffUserPage is one page of the user list, with the groups the actor
// may grant.
func (s *Server) staffUserPage(w http.ResponseWriter, r *http.Request) {
	offset, limit, err := pageOf(r, 50)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	page, err := s.queries.UserPage(r.Context(), actorOf(r), usecase.UserPageQuery{
		Filter: userlist.Filter{Search: q.Get("search"), HideBlocked: truthy(q.Get("hide_blocked"))},
		Offset: offset, Limit: limit, Sort: q.Get("sort"), Desc: truthy(q.Get("desc")),
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

func (s *Server) staffUser(w http.ResponseWriter, r *http.Request) {
	u, err := s.queries.UserOf(r.Context(), actorOf(r), chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, u)
}

// calculationFilter reads the history's filters from the query.
func calculationFilter(r *http.Request) (calcaudit.Filter, error) {
	q := r.URL.Query()
	f := calcaudit.Filter{User: q.Get("user"), Project: q.Get("project"), System: q.Get("system"), Outcome: q.Get("outcome")}
	var err error
	if f.From, err = instant(r, "from"); err != nil {
		return f, err
	}
	f.To, err = instant(r, "to")
	return f, err
}

func (s *Server) staffCalculationPage(w http.ResponseWriter, r *http.Request) {
	f, err := calculationFilter(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	offset, limit, err := pageOf(r, 50)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	page, err := s.queries.CalculationPage(r.Context(), actorOf(r), usecase.CalculationQuery{
		Filter: f, Offset: offset, Limit: limit, Ascending: r.URL.Query().Get("order") == "asc"})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

// csvHeader are the export's columns: units in the names, numbers as
// stored (a point for decimals), times in UTC.
var csvHeader = []string{"time_utc", "user", "project", "run", "system", "method", "length_m", "area_m2",
	"intensity_mm_h", "discharge_l_s", "result", "message", "duration_ms"}

// staffCalculationCSV exports the filtered history as CSV, newest first.
func (s *Server) staffCalculationCSV(w http.ResponseWriter, r *http.Request) {
	f, err := calculationFilter(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// Rows are streamed; a refusal must be known before the first byte.
	var out *csv.Writer
	started := false
	err = s.queries.EachCalculation(r.Context(), actorOf(r), f, func(row calcaudit.Row) error {
		if !started {
			started = true
			startCSV(w, s.cfg.Now())
			out = csv.NewWriter(w)
			if err := out.Write(csvHeader); err != nil {
				return err
			}
		}
		duration := ""
		if row.DurationMS != nil {
			duration = strconv.FormatFloat(*row.DurationMS, 'f', -1, 64)
		}
		return out.Write([]string{row.At.Format(time.RFC3339), row.Username, row.ProjectName, row.RunName, row.System, row.Method,
			row.LengthM, row.AreaM2, row.Intensity, row.Discharge, row.Outcome, row.Message, duration})
	})
	if err != nil && !started {
		s.fail(w, r, err)
		return
	}
	if !started {
		startCSV(w, s.cfg.Now())
		out = csv.NewWriter(w)
		_ = out.Write(csvHeader)
	}
	out.Flush()
	if err == nil {
		err = out.Error()
	}
	if err != nil {
		s.log.Error("calculation export cut short", "err", err)
	}
}

func startCSV(w http.ResponseWriter, now time.Time) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="calculations-`+now.UTC().Format("2006-01-02")+`.csv"`)
	w.WriteHeader(http.StatusOK)
	// The byte order mark makes spreadsheets read the names as UTF-8.
	_, _ = w.Write([]byte("\ufeff"))
}

func (s *Server) staffCalculation(w http.ResponseWriter, r *http.Request) {
	d, err := s.queries.Calculation(r.Context(), actorOf(r), chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) staffCalculationSystems(w http.ResponseWriter, r *http.Request) {
	list, err := s.queries.CalculationSystems(r.Context(), actorOf(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// staffHistory is the staff history; kind=availability for marketing.
func (s *Server) staffHistory(w http.ResponseWriter, r *http.Request) {
	offset, limit, err := pageOf(r, 50)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	list, err := s.queries.StaffLog(r.Context(), actorOf(r), r.URL.Query().Get("kind"), offset, limit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) staffMap(w http.ResponseWriter, r *http.Request) {
	m, err := s.queries.Map(r.Context(), actorOf(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// staffOffers is the channel-availability page: every country's offer.
func (s *Server) staffOffers(w http.ResponseWriter, r *http.Request) {
	list, err := s.queries.Offers(r.Context(), actorOf(r), s.catalogue())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// staffChangeOffer offers or withdraws a system or channel type in a
// country, and answers with the country's offer.
func (s *Server) staffChangeOffer(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Country string `json:"country"`
		System  string `json:"system"`
		Channel string `json:"channel"`
		Offered *bool  `json:"offered"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if in.Offered == nil {
		s.fail(w, r, badRequestf("offered (true or false) is required"))
		return
	}
	s.offers.dropWhere(nil)
	co, err := s.availability.Change(r.Context(), actorOf(r), in.Country, in.System, in.Channel, *in.Offered)
	s.offers.dropWhere(nil) // also after: a read made meanwhile may predate the change
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, co)
}
