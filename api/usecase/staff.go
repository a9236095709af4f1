package usecase

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/availability"
	"draindesign/domain/catalogue"
	"draindesign/domain/fault"
	"draindesign/eventstore"
	"draindesign/eventstore/aggregate"
	"draindesign/projections"
	"draindesign/projections/calcaudit"
	"draindesign/projections/offer"
	"draindesign/projections/projectlist"
	"draindesign/projections/stafflog"
	"draindesign/projections/staffmap"
	"draindesign/projections/timeline"
	"draindesign/projections/userlist"
)

// The staff area's reads. Every one checks the actor's right first and
// reads only read models built for its screen.

var errNoMarketing = fault.New(fault.Forbidden, "Only marketing users and administrators may do this")

// marketing: the channel-availability page is open to is_marketing, which
// administrators have too.
func marketing(a Actor) error {
	if err := signedIn(a); err != nil {
		return err
	}
	if !a.User.Flags().IsMarketing {
		return errNoMarketing
	}
	return nil
}

// MaxPage bounds one page of a staff list.
const MaxPage = 500

func checkPage(offset, limit int) error {
	if offset < 0 || limit < 1 || limit > MaxPage {
		return fault.New(fault.BadInput, "offset must be 0 or more and limit from 1 to %d", MaxPage)
	}
	return nil
}

// GroupChoice is a permission group as the staff area offers it.
type GroupChoice struct {
	Code  string `json:"code"`
	Label string `json:"label"`
}

// UserRow is a user list row with what the acting staff member may do.
type UserRow struct {
	userlist.User
	// Manageable: the actor may block, unblock and delete this account
	// and move it between groups (never their own).
	Manageable bool `json:"manageable"`
}

// UserPage is a page of the staff user list.
type UserPage struct {
	Rows  []UserRow `json:"rows"`
	Total int       `json:"total"`
	// Grantable are the groups the actor may move an account to.
	Grantable []GroupChoice `json:"grantable"`
}

// UserPageQuery asks for a page of the user list.
type UserPageQuery struct {
	userlist.Filter
	Offset, Limit int
	Sort          string
	Desc          bool
}

// UserPage is a page of the staff user list, with the actor's choices.
func (q *Queries) UserPage(ctx context.Context, a Actor, in UserPageQuery) (UserPage, error) {
	if err := staff(a); err != nil {
		return UserPage{}, err
	}
	if err := checkPage(in.Offset, in.Limit); err != nil {
		return UserPage{}, err
	}
	if in.Sort != "" && !slices.Contains(userlist.SortColumns(), in.Sort) {
		return UserPage{}, fault.New(fault.BadInput, "sort must be one of %s", strings.Join(userlist.SortColumns(), ", "))
	}
	// The rows count each user's projects from the project list.
	if err := q.fresh(ctx, projectlist.Projection{}); err != nil {
		return UserPage{}, err
	}
	p, err := userlist.PageOf(ctx, q.db, in.Filter, in.Offset, in.Limit, in.Sort, in.Desc)
	if err != nil {
		return UserPage{}, err
	}
	out := UserPage{Rows: make([]UserRow, len(p.Rows)), Total: p.Total, Grantable: grantable(a)}
	for i, u := range p.Rows {
		out.Rows[i] = UserRow{User: u, Manageable: u.ID != a.User.ID && account.CanManage(a.User.Group, account.Group(u.Group))}
	}
	return out, nil
}

func grantable(a Actor) []GroupChoice {
	out := []GroupChoice{}
	for _, g := range account.GrantableGroups(a.User.Group) {
		out = append(out, GroupChoice{Code: string(g), Label: g.Label()})
	}
	return out
}

// UserOf is one account as the staff list shows it, deleted ones too.
func (q *Queries) UserOf(ctx context.Context, a Actor, id string) (UserRow, error) {
	if err := staff(a); err != nil {
		return UserRow{}, err
	}
	if err := q.fresh(ctx, projectlist.Projection{}); err != nil {
		return UserRow{}, err
	}
	u, ok, err := userlist.Get(ctx, q.db, id)
	if err != nil {
		return UserRow{}, err
	}
	if !ok {
		return UserRow{}, account.ErrNotFound
	}
	return UserRow{User: u, Manageable: u.ID != a.User.ID && account.CanManage(a.User.Group, account.Group(u.Group))}, nil
}

// Summary is the staff home's counts.
type Summary struct {
	Users          int `json:"users"`
	Projects       int `json:"projects"`
	CalculationsOn int `json:"calculations_today"`
	FailuresOn     int `json:"failures_today"`
}

// StaffSummary counts the live users, the saved projects, and the
// calculations and failed ones since the start of the day (since).
func (q *Queries) StaffSummary(ctx context.Context, a Actor, since time.Time) (Summary, error) {
	if err := staff(a); err != nil {
		return Summary{}, err
	}
	var s Summary
	if err := q.fresh(ctx, calcaudit.Projection{}, projectlist.Projection{}); err != nil {
		return s, err
	}
	var err error
	if s.Users, err = userlist.CountLive(ctx, q.db); err != nil {
		return s, err
	}
	if s.Projects, err = projectlist.CountSaved(ctx, q.db); err != nil {
		return s, err
	}
	c, err := calcaudit.CountSince(ctx, q.db, since)
	s.CalculationsOn, s.FailuresOn = c.Calculations, c.Failures
	return s, err
}

// CalculationQuery asks for a page of the calculation history.
type CalculationQuery struct {
	calcaudit.Filter
	Offset, Limit int
	Ascending     bool
}

func checkFilter(f calcaudit.Filter) error {
	if f.Outcome != "" && !slices.Contains(calcaudit.Outcomes(), f.Outcome) {
		return fault.New(fault.BadInput, "outcome must be one of %s", strings.Join(calcaudit.Outcomes(), ", "))
	}
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		return fault.New(fault.BadInput, "The date range ends before it starts")
	}
	return nil
}

// CalculationPage is a page of the staff calculation history.
func (q *Queries) CalculationPage(ctx context.Context, a Actor, in CalculationQuery) (calcaudit.Page, error) {
	if err := staff(a); err != nil {
		return calcaudit.Page{}, err
	}
	if err := checkPage(in.Offset, in.Limit); err != nil {
		return calcaudit.Page{}, err
	}
	if err := checkFilter(in.Filter); err != nil {
		return calcaudit.Page{}, err
	}
	if err := q.fresh(ctx, calcaudit.Projection{}, projectlist.Projection{}); err != nil {
		return calcaudit.Page{}, err
	}
	return calcaudit.List(ctx, q.db, in.Filter, in.Offset, in.Limit, in.Ascending)
}

// MaxExport bounds the rows of one CSV export of the history.
const MaxExport = 100_000

// EachCalculation calls fn with every calculation the filter matches,
// newest first, at most MaxExport.
func (q *Queries) EachCalculation(ctx context.Context, a Actor, f calcaudit.Filter, fn func(calcaudit.Row) error) error {
	if err := staff(a); err != nil {
		return err
	}
	if err := checkFilter(f); err != nil {
		return err
	}
	if err := q.fresh(ctx, calcaudit.Projection{}, projectlist.Projection{}); err != nil {
		return err
	}
	return calcaudit.Each(ctx, q.db, f, MaxExport, fn)
}

// Calculation is one calculation's inputs and results.
func (q *Queries) Calculation(ctx context.Context, a Actor, id string) (calcaudit.Detail, error) {
	if err := staff(a); err != nil {
		return calcaudit.Detail{}, err
	}
	// The detail is the calculation's event in the timeline, refreshed
	// after the audit so that it shows every calculation the audit does.
	if err := q.fresh(ctx, calcaudit.Projection{}, timeline.New()); err != nil {
		return calcaudit.Detail{}, err
	}
	d, ok, err := calcaudit.DetailOf(ctx, q.db, id)
	if err != nil {
		return d, err
	}
	if !ok {
		return d, fault.New(fault.NotFound, "No such calculation")
	}
	return d, nil
}

// CalculationSystems are the systems in the history, for its filter.
func (q *Queries) CalculationSystems(ctx context.Context, a Actor) ([]string, error) {
	if err := staff(a); err != nil {
		return nil, err
	}
	if err := q.fresh(ctx, calcaudit.Projection{}, projectlist.Projection{}); err != nil {
		return nil, err
	}
	return calcaudit.Systems(ctx, q.db)
}

// StaffLog is the staff history, newest first. Marketing users see the
// availability changes only; administrators every kind.
func (q *Queries) StaffLog(ctx context.Context, a Actor, kind string, offset, limit int) ([]stafflog.Entry, error) {
	if err := checkPage(offset, limit); err != nil {
		return nil, err
	}
	switch kind {
	case stafflog.KindAvailability:
		if err := marketing(a); err != nil {
			return nil, err
		}
	case "", stafflog.KindUsers:
		if err := staff(a); err != nil {
			return nil, err
		}
	default:
		return nil, fault.New(fault.BadInput, "kind must be users or availability")
	}
	return stafflog.List(ctx, q.db, kind, offset, limit)
}

// MapCountry is one country on the staff map.
type MapCountry struct {
	Country  string `json:"country"`
	Name     string `json:"name"`
	Users    int    `json:"users"`
	Projects int    `json:"projects"`
}

// StaffMap is where users and calculated projects are.
type StaffMap struct {
	Countries []MapCountry          `json:"countries"`
	Places    []staffmap.PlaceCount `json:"places"`
}

// Map is the staff map: users and calculated projects by country, and the
// UK runs by the place of their rainfall.
func (q *Queries) Map(ctx context.Context, a Actor) (StaffMap, error) {
	if err := staff(a); err != nil {
		return StaffMap{}, err
	}
	if err := q.fresh(ctx, staffmap.Projection{}); err != nil {
		return StaffMap{}, err
	}
	users, err := userlist.ByCountry(ctx, q.db)
	if err != nil {
		return StaffMap{}, err
	}
	projects, err := staffmap.CalculatedByCountry(ctx, q.db)
	if err != nil {
		return StaffMap{}, err
	}
	seen := map[string]*MapCountry{}
	var out StaffMap
	add := func(iso string) *MapCountry {
		if c, ok := seen[iso]; ok {
			return c
		}
		name := iso
		if c, ok := account.CountryByISO(iso); ok {
			name = c.Name
		}
		seen[iso] = &MapCountry{Country: iso, Name: name}
		return seen[iso]
	}
	for iso, n := range users {
		add(iso).Users = n
	}
	for iso, n := range projects {
		add(iso).Projects = n
	}
	for _, c := range seen {
		out.Countries = append(out.Countries, *c)
	}
	sort.Slice(out.Countries, func(i, j int) bool { return out.Countries[i].Country < out.Countries[j].Country })
	if out.Places, err = staffmap.Places(ctx, q.db); err != nil {
		return StaffMap{}, err
	}
	return out, nil
}

// Channel is a channel type of a system as the availability page lists it.
type Channel struct {
	Code    string `json:"code"`
	WidthMM int    `json:"width_mm"`
	Offered bool   `json:"offered"`
}

// SystemOffer is a system in a country: whether it is offered, and its
// channel types.
type SystemOffer struct {
	Slug     string    `json:"slug"`
	Name     string    `json:"name"`
	Offered  bool      `json:"offered"`
	Channels []Channel `json:"channels"`
}

// CountryOffer is what a country is offered. Systems the catalogue never
// sells there are not listed.
type CountryOffer struct {
	Country string        `json:"country"`
	Name    string        `json:"name"`
	Region  string        `json:"region"`
	Systems []SystemOffer `json:"systems"`
}

// Offers is the channel-availability page: every country with its
// systems and channel types, each offered or withdrawn.
func (q *Queries) Offers(ctx context.Context, a Actor, cat *catalogue.Catalogue) ([]CountryOffer, error) {
	if err := marketing(a); err != nil {
		return nil, err
	}
	all, err := offer.All(ctx, q.db)
	if err != nil {
		return nil, err
	}
	out := []CountryOffer{}
	for _, c := range account.Countries() {
		out = append(out, countryOffer(cat, c, all[c.ISOCode]))
	}
	return out, nil
}

func countryOffer(cat *catalogue.Catalogue, c account.Country, w offer.Withdrawn) CountryOffer {
	co := CountryOffer{Country: c.ISOCode, Name: c.Name, Region: c.Region, Systems: []SystemOffer{}}
	for _, s := range cat.Systems() {
		if !s.AvailableIn(c.ISOCode) {
			continue
		}
		so := SystemOffer{Slug: s.Slug, Name: s.Name, Offered: w.Offers(s.Slug, ""), Channels: []Channel{}}
		for _, ch := range ChannelTypes(cat, s.Slug) {
			ch.Offered = w.Offers(s.Slug, ch.Code)
			so.Channels = append(so.Channels, ch)
		}
		co.Systems = append(co.Systems, so)
	}
	return co
}

// ChannelTypes are a system's channel types (the catalogue's
// sub-products) in display order, each with the width of its channels.
func ChannelTypes(cat *catalogue.Catalogue, system string) []Channel {
	specs, err := cat.SystemChannels(system)
	if err != nil {
		return nil
	}
	out := []Channel{}
	seen := map[string]bool{}
	for _, ch := range specs {
		if ch.SubProduct == "" || seen[ch.SubProduct] {
			continue
		}
		seen[ch.SubProduct] = true
		out = append(out, Channel{Code: ch.SubProduct, WidthMM: ch.WidthMM})
	}
	return out
}

// Withdrawn is what is withdrawn in a country, for filtering its users'
// product lists.
func (q *Queries) Withdrawn(ctx context.Context, country string) (offer.Withdrawn, error) {
	return offer.Of(ctx, q.db, country)
}

// OfferStamp grows whenever a country's offer changes.
func (q *Queries) OfferStamp(ctx context.Context, country string) (int64, error) {
	return offer.Stamp(ctx, q.db, country)
}

// Availability changes what is offered in a country.
type Availability struct {
	repo   *aggregate.Repository[*availability.Offer, availability.Event]
	runner *projections.Runner
	cat    *catalogue.Catalogue
	now    func() time.Time
	log    *slog.Logger
}

var errNoOffer = errors.New("no availability changes yet")

// NewAvailability builds the availability use case.
func NewAvailability(cfg Config) *Availability {
	cfg = cfg.withDefaults()
	return &Availability{
		repo: &aggregate.Repository[*availability.Offer, availability.Event]{
			Store: cfg.Store, Codec: availabilityCodec{}, Stream: availability.Stream,
			New:      availability.NewOffer,
			Missing:  func(string) error { return errNoOffer },
			Appended: cfg.Appended, Skipped: cfg.skipped("availability"), NewID: NewID, Now: cfg.Now,
		},
		runner: cfg.Runner, cat: cfg.Catalogue, now: cfg.Now, log: cfg.Logger,
	}
}

// sellable adapts the catalogue to what availability checks against.
type sellable struct{ cat *catalogue.Catalogue }

func (s sellable) Sellable(system, country string) bool {
	sys, err := s.cat.System(system)
	return err == nil && sys.AvailableIn(country)
}

func (s sellable) HasChannel(system, channel string) bool {
	return slices.ContainsFunc(ChannelTypes(s.cat, system), func(c Channel) bool { return c.Code == channel })
}

// Change offers or withdraws a system (channel "") or a channel type of
// it in a country, and waits until this instance's read models show it, so
// that the country's users' next product list has it.
func (u *Availability) Change(ctx context.Context, a Actor, country, system, channel string, offered bool) (CountryOffer, error) {
	if err := marketing(a); err != nil {
		return CountryOffer{}, err
	}
	country = account.NormalizeISO(country)
	c, ok := account.CountryByISO(country)
	if !ok {
		return CountryOffer{}, &availability.UnknownError{What: "country", Name: country}
	}
	for attempt := 0; ; attempt++ {
		o, err := u.repo.Load(ctx, country)
		expected := eventstore.Exactly(o.StreamVersion())
		if errors.Is(err, errNoOffer) {
			o, err, expected = availability.NewOffer(), nil, eventstore.NoStream
		}
		if err != nil {
			return CountryOffer{}, err
		}
		evs, err := o.Set(country, a.User.Actor(), availability.Key{System: system, Channel: channel}, offered, sellable{u.cat}, u.now())
		if err != nil {
			return CountryOffer{}, err
		}
		if len(evs) > 0 {
			err = u.repo.Append(ctx, country, expected, a.meta(), evs)
			if errors.Is(err, eventstore.ErrConflict) && attempt < 3 {
				continue
			}
			if err != nil {
				return CountryOffer{}, err
			}
			for _, e := range evs {
				o.Apply(e)
			}
			u.settle(ctx, country, o.StreamVersion()+int64(len(evs)))
		}
		w := offer.Withdrawn{Systems: map[string]bool{}, Channels: map[string]map[string]bool{}}
		for _, k := range o.Withdrawn() {
			if k.Channel == "" {
				w.Systems[k.System] = true
				continue
			}
			if w.Channels[k.System] == nil {
				w.Channels[k.System] = map[string]bool{}
			}
			w.Channels[k.System][k.Channel] = true
		}
		return countryOffer(u.cat, c, w), nil
	}
}

func (u *Availability) settle(ctx context.Context, country string, version int64) {
	if u.runner == nil {
		return
	}
	if err := u.runner.WaitForStream(ctx, availability.Stream(country), version); err != nil {
		u.log.Warn("read models behind after write", "stream", availability.Stream(country), "err", err)
	}
}
