package usecase

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/catalogue"
	"draindesign/domain/design"
	"draindesign/domain/fault"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/aggregate"
	"draindesign/projections"
	"draindesign/projections/projectlist"
	"draindesign/projections/timeline"

	"github.com/google/uuid"
)

// Config is what the use cases need from the process.
type Config struct {
	Store eventstore.Store
	DB    *projections.DB
	// Runner gives read-your-writes: a use case that wrote waits until this
	// instance's read models show the write. Nil skips the wait.
	Runner *projections.Runner
	// Appended is told after every append, with the stream and where the
	// append landed and the types appended (the relay's Notify, the live
	// hints, the runner).
	Appended func(stream string, res eventstore.AppendResult, types []string)
	// Skipped is told of each stored event of a type this build does not
	// know, skipped while loading an aggregate.
	Skipped func(stream, eventType string)
	// Catalogue is what saved runs are recalculated against (nil: the
	// built-in catalogue): a save never trusts the client's results.
	Catalogue *catalogue.Catalogue
	Now       func() time.Time
	Logger    *slog.Logger
	// HashPassword hashes the password of a new account (nil:
	// account.HashPassword). The load test creates hundreds of accounts
	// with one password and hashes it once.
	HashPassword func(password string) (string, error)

	// Eraser erases a deleted account's personal data from the log (nil:
	// the store cannot, and account deletion fails).
	Eraser Eraser

	// Caches (nil: none) keep recently loaded accounts and projects; one
	// server's use cases share them.
	Caches *Caches
}

// NewID makes ids for projects, runs and share links: time-ordered, so
// index inserts stay at the end.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

// Projects are the use cases of projects.
type Projects struct {
	repo   *aggregate.Repository[*project.Project, project.Event]
	db     *projections.DB
	runner *projections.Runner
	cat    *catalogue.Catalogue
	now    func() time.Time
	log    *slog.Logger
}

// NewProjects builds the project use cases.
func NewProjects(cfg Config) *Projects {
	cfg = cfg.withDefaults()
	return &Projects{
		repo: &aggregate.Repository[*project.Project, project.Event]{
			Store: cfg.Store, Codec: projectCodec{}, Stream: project.Stream,
			New:      func() *project.Project { return &project.Project{} },
			Missing:  func(id string) error { return &project.NotFoundError{What: "project", ID: id} },
			Appended: cfg.Appended, Skipped: cfg.skipped("project"), NewID: NewID, Now: cfg.Now,
			Cache: cfg.Caches.projectCache(),
		},
		db: cfg.DB, runner: cfg.Runner, cat: cfg.Catalogue, now: cfg.Now, log: cfg.Logger,
	}
}

// skipped is the hook told of unknown event types while loading: the
// configured one, or the shared counter of the read models.
func (c Config) skipped(source string) func(stream, eventType string) {
	if c.Skipped != nil {
		return c.Skipped
	}
	return func(_, eventType string) { projections.SkipUnknown(source, eventType) }
}

func (c Config) withDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Catalogue == nil {
		c.Catalogue = catalogue.Default()
	}
	if c.HashPassword == nil {
		c.HashPassword = account.HashPassword
	}
	return c
}

func (u *Projects) clock() time.Time { return u.now().UTC() }

// hidden answers alike for a project that does not exist and one the
// actor may not see or change.
func hidden(id string) error { return &project.NotFoundError{What: "project", ID: id} }

// writable is the guard of every change: only who may write the project
// learns anything about it, its version included.
func writable(a Actor, id string) func(*project.Project) error {
	return func(p *project.Project) error {
		if !p.CanWrite(a.Viewer("")) {
			return hidden(id)
		}
		return nil
	}
}

// update runs a change on a project the actor may write, then waits for
// the read models.
func (u *Projects) update(ctx context.Context, a Actor, id string, expected int64, decide func(*project.Project) ([]project.Event, error)) (*project.Project, error) {
	return u.updateFrom(ctx, a, id, nil, expected, decide)
}

// updateFrom is update starting from a project the caller loaded a moment
// ago (nil: none), caught up rather than loaded again.
func (u *Projects) updateFrom(ctx context.Context, a Actor, id string, loaded *project.Project, expected int64, decide func(*project.Project) ([]project.Event, error)) (*project.Project, error) {
	if a.User == nil {
		return nil, hidden(id)
	}
	guard := writable(a, id)
	var from **project.Project
	if loaded != nil {
		from = &loaded
	}
	// The events of the last decision are the ones appended (an earlier
	// one, on a stale copy, was decided again).
	var appended []project.Event
	p, err := u.repo.UpdateFrom(ctx, id, from, expected, a.meta(), guard, func(p *project.Project) ([]project.Event, error) {
		evs, err := decide(p)
		appended = evs
		return evs, err
	})
	if err != nil {
		return nil, err
	}
	if len(appended) == 0 {
		// Nothing appended: nothing to change, or the retry of a write
		// whose answer was lost (stored already, so decided again to
		// nothing). That write may not show yet: wait for every read
		// model, but not for long, as the ones writers do not wait for
		// may be far behind under load (`make load`: edits retried after
		// an instance's SIGKILL waited out the client's 30 s timeout).
		short, cancel := context.WithTimeout(ctx, noopSettle)
		defer cancel()
		u.settle(short, p)
		return p, nil
	}
	u.settle(ctx, p, appended...)
	return p, nil
}

// noopSettle bounds the wait of a write that appended nothing.
const noopSettle = time.Second

// settle waits until this instance's read models show the project at its
// new version, so the list the client asks for next includes the change.
// Given the events written, it waits only for the read models that read
// their types: an edit or a calculation changes no list. With none, it
// waits for every read model that follows the project.
func (u *Projects) settle(ctx context.Context, p *project.Project, written ...project.Event) {
	if u.runner == nil {
		return
	}
	types := make([]string, len(written))
	for i, e := range written {
		types[i] = e.EventType()
	}
	if err := u.runner.WaitForStream(ctx, project.Stream(p.ID), p.Version, types...); err != nil {
		u.log.Warn("read models behind after write", "project", p.ID, "err", err)
	}
}

// create starts a project owned by the actor, filled by then's events in
// the same atomic append.
func (u *Projects) create(ctx context.Context, a Actor, then func(*project.Project) ([]project.Event, error)) (*project.Project, error) {
	if a.User == nil {
		return nil, fault.New(fault.Unauthenticated, "Please log in")
	}
	id := NewID()
	evs := project.New(id, a.User.ID, a.User.Username, a.User.Country, u.clock())
	p := project.FromEvents(evs)
	more, err := then(p)
	if err != nil {
		return nil, err
	}
	p, err = u.repo.Create(ctx, id, a.meta(), append(evs, more...))
	if err != nil {
		return nil, err
	}
	u.settle(ctx, p)
	return p, nil
}

// CreateDraft opens a new project with Run 1, for live editing.
func (u *Projects) CreateDraft(ctx context.Context, a Actor) (*project.Project, string, error) {
	runID := NewID()
	p, err := u.create(ctx, a, func(p *project.Project) ([]project.Event, error) { return p.AddRun(runID) })
	return p, runID, err
}

// Save is a save from the save dialog.
type Save struct {
	// ProjectID is empty for a first save (or save as new).
	ProjectID string
	// Version is the version the client loaded; required when saving over
	// an existing project, so an old tab cannot overwrite newer work.
	Version           *int64
	Content           project.Content
	ShareWithProvider bool
	// Calculate, when set, runs each calculation the save makes (none when
	// every run's calculation is the project's own): the CPU-heavy part.
	// Its error ends the save.
	Calculate func(func()) error
	// Verified, when set, is told once the runs have been checked (and
	// recalculated where needed): the CPU-heavy part is over, what follows
	// waits on the store.
	Verified func()
	// RequestID is the client's name for this request (optional): sent
	// again over an existing project after its answer was lost, the
	// request is answered as the first time (Project.SaveAnswered).
	RequestID string
}

// Saving is a save's answer.
type Saving struct {
	Project *project.Project
	// RunIDs are the runs' ids, in the order of the content's runs.
	RunIDs []string
	// Version is the version the save left the project at.
	Version int64
}

// maxRequestID bounds the names clients give requests (Save.RequestID,
// Outcome.RequestID): a UUID is 36 characters.
const maxRequestID = 100

// CheckRequestID refuses a request name longer than maxRequestID.
func CheckRequestID(id string) error {
	if len(id) > maxRequestID {
		return fault.New(fault.BadInput, `Field "request_id" is at most %d characters`, maxRequestID)
	}
	return nil
}

// SaveProject brings the project to the saved content.
func (u *Projects) SaveProject(ctx context.Context, a Actor, in Save) (Saving, error) {
	p, runIDs, err := u.saveProject(ctx, a, in)
	if errors.Is(err, aggregate.ErrStale) && in.RequestID != "" {
		if again, ok := u.savedAlready(ctx, a, in); ok {
			return again, nil
		}
	}
	if err != nil {
		return Saving{}, err
	}
	return Saving{Project: p, RunIDs: runIDs, Version: p.Version}, nil
}

// savedAlready is the answer to a save request that was stored already:
// the project's last save carries its name, so the project "changed since"
// only by that save. The caller's rights are checked again.
func (u *Projects) savedAlready(ctx context.Context, a Actor, in Save) (Saving, bool) {
	p, err := u.repo.Load(ctx, in.ProjectID)
	if err != nil || writable(a, in.ProjectID)(p) != nil {
		return Saving{}, false
	}
	r, ok := p.SaveAnswered(in.RequestID)
	if !ok {
		return Saving{}, false
	}
	// The instance that stored it may have stopped before its read models
	// showed it: as for any write that appended nothing, wait a little.
	short, cancel := context.WithTimeout(ctx, noopSettle)
	defer cancel()
	u.settle(short, p)
	return Saving{Project: p, RunIDs: r.RunIDs, Version: r.Version}, true
}

func (u *Projects) saveProject(ctx context.Context, a Actor, in Save) (*project.Project, []string, error) {
	if a.User == nil {
		return nil, nil, hidden(in.ProjectID)
	}
	if err := CheckRequestID(in.RequestID); err != nil {
		return nil, nil, err
	}
	by := project.SaveBy{UserID: a.User.ID, UserName: a.User.Username, ShareWithProvider: in.ShareWithProvider, At: u.clock(), RequestID: in.RequestID}
	var runIDs []string
	decide := func(p *project.Project) ([]project.Event, error) {
		evs, ids, err := p.Save(in.Content, by, NewID, design.Verifier(u.cat, in.Calculate))
		runIDs = ids
		if in.Verified != nil {
			in.Verified()
		}
		return evs, err
	}
	if in.ProjectID == "" {
		p, err := u.create(ctx, a, decide)
		return p, runIDs, err
	}
	if in.Version == nil || *in.Version < 1 {
		return nil, nil, fault.New(fault.BadInput, `Field "version" is required when saving over an existing project: the version you loaded`)
	}
	p, err := u.update(ctx, a, in.ProjectID, *in.Version, decide)
	return p, runIDs, err
}

// Share gives the project a share link (once; later calls give the same).
func (u *Projects) Share(ctx context.Context, a Actor, id string) (string, error) {
	var shareID string
	_, err := u.update(ctx, a, id, -1, func(p *project.Project) ([]project.Event, error) {
		evs, sid, err := p.ShareByLink(NewID())
		shareID = sid
		return evs, err
	})
	return shareID, err
}

// StopSharing withdraws the share link; the old link opens nothing.
func (u *Projects) StopSharing(ctx context.Context, a Actor, id string) error {
	_, err := u.update(ctx, a, id, -1, func(p *project.Project) ([]project.Event, error) { return p.StopSharing() })
	return err
}

// Delete removes the project from its owner's list; admins still see it.
func (u *Projects) Delete(ctx context.Context, a Actor, id string) error {
	_, err := u.update(ctx, a, id, -1, func(p *project.Project) ([]project.Event, error) { return p.Delete(u.clock()) })
	return err
}

// Edit is one live edit of the design screen.
type Edit struct {
	Type     string
	RunID    string
	Name     string
	Fields   project.Inputs
	Notes    *string
	Order    []string
	Details  project.Details
	Settings project.Settings
	// Version is the version a restore brings back.
	Version int64
}

func (c Edit) decide(newRunID string, now time.Time) (func(*project.Project) ([]project.Event, error), error) {
	switch c.Type {
	case "add_run":
		return func(p *project.Project) ([]project.Event, error) { return p.AddRun(newRunID) }, nil
	case "rename_run":
		return func(p *project.Project) ([]project.Event, error) { return p.Rename(c.RunID, c.Name) }, nil
	case "duplicate_run":
		return func(p *project.Project) ([]project.Event, error) { return p.Duplicate(c.RunID, newRunID) }, nil
	case "remove_run":
		return func(p *project.Project) ([]project.Event, error) { return p.RemoveRun(c.RunID, newRunID) }, nil
	case "reorder_runs":
		return func(p *project.Project) ([]project.Event, error) { return p.Reorder(c.Order) }, nil
	case "change_inputs":
		if len(c.Fields) == 0 {
			return nil, fault.New(fault.BadInput, "change_inputs needs the changed fields")
		}
		return func(p *project.Project) ([]project.Event, error) { return p.ChangeInputs(c.RunID, c.Fields) }, nil
	case "change_notes":
		if c.Notes == nil {
			return nil, fault.New(fault.BadInput, "change_notes needs notes")
		}
		return func(p *project.Project) ([]project.Event, error) { return p.ChangeNotes(c.RunID, *c.Notes) }, nil
	case "reset_run":
		return func(p *project.Project) ([]project.Event, error) { return p.Reset(c.RunID) }, nil
	case "change_details":
		return func(p *project.Project) ([]project.Event, error) {
			return p.ChangeDetails(c.Details, c.Settings, p.Notes)
		}, nil
	}
	return nil, fault.New(fault.BadInput, "Unknown command %q", c.Type)
}

// EditProject applies one live edit. It answers the project and the id of
// a run the edit created, if any.
func (u *Projects) EditProject(ctx context.Context, a Actor, id string, c Edit) (*project.Project, string, error) {
	// Restores decide on the project's history, not on the project alone.
	var restore func(context.Context, Actor, string) (*project.Project, error)
	switch c.Type {
	case "undo":
		restore = u.Undo
	case "redo":
		restore = u.Redo
	case "restore":
		restore = func(ctx context.Context, a Actor, id string) (*project.Project, error) {
			return u.Restore(ctx, a, id, c.Version)
		}
	}
	if restore != nil {
		p, err := restore(ctx, a, id)
		return p, "", err
	}
	newRunID := NewID()
	decide, err := c.decide(newRunID, u.clock())
	if err != nil {
		return nil, "", err
	}
	p, err := u.update(ctx, a, id, -1, decide)
	if err != nil {
		return nil, "", err
	}
	if _, ok := p.Run(newRunID); !ok {
		newRunID = ""
	}
	return p, newRunID, nil
}

// CheckRun makes sure a calculation naming a project run may record in it:
// the actor may write the project, the run is in it, and the inputs may be
// stored. It is asked before calculating, so a calculation whose outcome
// could not be recorded costs nothing.
//
// It answers the project as loaded for the check (nil when no project is
// named), for RecordCalculation to start from (Outcome.Loaded).
func (u *Projects) CheckRun(ctx context.Context, a Actor, projectID, runID string, in project.Inputs) (*project.Project, error) {
	if projectID == "" && runID == "" {
		return nil, nil
	}
	if projectID == "" || runID == "" {
		return nil, fault.New(fault.BadInput, "A calculation of a project's run needs both project_id and run_id")
	}
	if err := project.ValidateInputs(in); err != nil {
		return nil, err
	}
	// The cached copy is not read again: the calculation is recorded by an
	// append at its version, which fails if the project moved meanwhile
	// (RecordCalculation then decides on a fresh load). A refusal on the
	// copy is checked on a fresh load, as the copy may be behind.
	p, fresh, err := u.repo.LoadCached(ctx, projectID)
	if err == nil {
		err = checkRun(a, p, projectID, runID)
	}
	if err != nil && !fresh {
		if p, err = u.repo.Load(ctx, projectID); err == nil {
			err = checkRun(a, p, projectID, runID)
		}
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// checkRun says whether the actor may calculate the project's run.
func checkRun(a Actor, p *project.Project, projectID, runID string) error {
	if err := writable(a, projectID)(p); err != nil {
		return err
	}
	if _, ok := p.Run(runID); !ok {
		return &project.NotFoundError{What: "run", ID: runID}
	}
	return nil
}

// Outcome is a calculation made on the server, to record in the run.
type Outcome struct {
	ProjectID, RunID string
	Inputs           project.Inputs
	// Summary is the successful result; empty when Failure is set.
	Summary project.Summary
	Failure string
	// Took is how long the calculation ran, kept for the staff history.
	Took time.Duration
	// Loaded is the project as CheckRun loaded it (nil: none); recording
	// catches it up instead of loading the whole stream again.
	Loaded *project.Project
	// RequestID is the client's name for the calculation request (optional,
	// at most maxRequestID characters): a request sent again after its
	// answer was lost, recorded already, is not recorded again.
	RequestID string
}

// RecordCalculation appends the outcome of a project run's calculation.
// The record yields to edits in the store (eventstore.LowPriority): the
// calculation took longer than the record's wait, while an edit is a
// designer's keystroke that their other tab should show at once.
func (u *Projects) RecordCalculation(ctx context.Context, a Actor, o Outcome) error {
	if o.ProjectID == "" {
		return nil
	}
	ctx = eventstore.LowPriority(ctx)
	if err := CheckRequestID(o.RequestID); err != nil {
		return err
	}
	_, err := u.updateFrom(ctx, a, o.ProjectID, o.Loaded, -1, func(p *project.Project) ([]project.Event, error) {
		if p.CalculationRecorded(o.RunID, o.RequestID) {
			return nil, nil
		}
		var evs []project.Event
		var err error
		if o.Failure != "" {
			evs, err = p.RecordFailure(o.RunID, o.Inputs, o.Failure)
		} else {
			evs, err = p.RecordCalculation(o.RunID, o.Inputs, o.Summary)
		}
		return stamped(evs, o.Took, o.RequestID), err
	})
	return err
}

// stamped puts on the recorded calculation what the application knows of
// it: the measured run time, rounded to a hundredth of a millisecond, and
// the client's name for the request. The domain decides what is recorded.
func stamped(evs []project.Event, took time.Duration, requestID string) []project.Event {
	ms := math.Round(float64(took.Microseconds())/10) / 100
	for i, e := range evs {
		switch e := e.(type) {
		case project.RunCalculated:
			e.DurationMS, e.RequestID = ms, requestID
			evs[i] = e
		case project.CalculationFailed:
			e.DurationMS, e.RequestID = ms, requestID
			evs[i] = e
		}
	}
	return evs
}

// OpenBy names the one identifier a load gives.
type OpenBy struct {
	ShareID, SupportID, SuperID, ID string
}

// Opened is a project as a load shows it to the actor.
type Opened struct {
	Project *project.Project
	// Editable: the actor may save over it.
	Editable bool
	// ShareID is the share link it was opened through, if any: run keys and
	// the live stream carry it, never the bare id.
	ShareID string
}

// Open loads a project through one identifier, checking the right that
// identifier needs: a share id opens the project it was issued for (read
// only), a support id opens a project shared with the provider for provider
// staff, a super id opens any project, deleted ones too, for admins, and a
// bare id opens what the actor may read.
func (u *Projects) Open(ctx context.Context, a Actor, by OpenBy) (Opened, error) {
	given := 0
	for _, v := range []string{by.ShareID, by.SupportID, by.SuperID, by.ID} {
		if v != "" {
			given++
		}
	}
	if given != 1 {
		return Opened{}, fault.New(fault.BadInput, "Give exactly one of shareID, supportID, superID or id")
	}
	id, shareID := by.ID, ""
	var err error
	switch {
	case by.ShareID != "":
		shareID = by.ShareID
		id, err = u.lookup(projectlist.ByShareID(ctx, u.db, by.ShareID))
	case by.SupportID != "":
		n, perr := strconv.ParseInt(by.SupportID, 10, 64)
		if perr != nil {
			return Opened{}, fault.New(fault.BadInput, "supportID must be a number")
		}
		id, err = u.lookup(projectlist.BySupportID(ctx, u.db, n))
	case by.SuperID != "":
		// The super id is the admins' way in, deleted projects included.
		if a.User == nil || a.Token || !a.User.Flags().IsAdmin {
			return Opened{}, hidden(by.SuperID)
		}
		id = by.SuperID
	}
	if err != nil {
		return Opened{}, err
	}
	p, err := u.Readable(ctx, a, id, shareID)
	if err != nil {
		return Opened{}, err
	}
	if p.Deleted && by.SuperID == "" {
		return Opened{}, hidden(id)
	}
	if len(p.Runs) == 0 {
		return Opened{}, fault.New(fault.BadInput, "No runs in project!")
	}
	return Opened{Project: p, Editable: p.CanWrite(a.Viewer("")), ShareID: shareID}, nil
}

func (u *Projects) lookup(id string, found bool, err error) (string, error) {
	if err == nil && !found {
		err = hidden("")
	}
	return id, err
}

// Readable loads a project the actor may read, presenting shareID if the
// project was opened through a share link.
func (u *Projects) Readable(ctx context.Context, a Actor, id, shareID string) (*project.Project, error) {
	if id == "" || a.User == nil {
		return nil, hidden(id)
	}
	p, err := u.repo.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	if !p.CanRead(a.Viewer(shareID)) {
		return nil, hidden(id)
	}
	return p, nil
}

// Share keys name a run of a project opened through a share link:
// "share:<share id>.<run id>"; other keys are "<project id>.<run id>".
const shareKeyPrefix = "share:"

// RunKey is the schedule key a load gives for a run.
func (o Opened) RunKey(runID string) string {
	if o.ShareID != "" {
		return shareKeyPrefix + o.ShareID + "." + runID
	}
	return o.Project.ID + "." + runID
}

// OpenRun loads one run by its schedule key.
func (u *Projects) OpenRun(ctx context.Context, a Actor, key string) (*project.Run, error) {
	head, runID, ok := strings.Cut(key, ".")
	if !ok || head == "" || runID == "" {
		return nil, fault.New(fault.BadInput, "A load key is a project id and a run id joined by a dot")
	}
	id, shareID := head, ""
	if s, isShare := strings.CutPrefix(head, shareKeyPrefix); isShare {
		shareID = s
		var err error
		if id, err = u.lookup(projectlist.ByShareID(ctx, u.db, s)); err != nil {
			return nil, err
		}
	}
	p, err := u.Readable(ctx, a, id, shareID)
	if err != nil {
		return nil, err
	}
	run, found := p.Run(runID)
	if !found {
		return nil, &project.NotFoundError{What: "run", ID: runID}
	}
	return run, nil
}

// History is a project's timeline as support replays it.
type History struct {
	Project *project.Project
	// At is the project as it stood after event AtVersion, when asked.
	At *project.Project
	// Events are the project's events up to at least Project.Version.
	Events []timeline.Entry
}

// Timeline loads the project for its timeline, and as it stood at version
// at (0: not asked). Owners, admins and provider staff (for projects shared
// with the provider) may replay; share-link holders may not.
func (u *Projects) Timeline(ctx context.Context, a Actor, id string, at int64) (History, error) {
	p, err := u.Readable(ctx, a, id, "")
	if err != nil {
		return History{}, err
	}
	h := History{Project: p}
	if at != 0 {
		if at < 1 || at > p.Version {
			return History{}, fault.New(fault.BadInput, "version must be a number from 1 to %d", p.Version)
		}
		if h.At, err = u.repo.LoadAt(ctx, id, at); err != nil {
			return History{}, err
		}
	}
	if h.Events, err = u.timelineOf(ctx, p); err != nil {
		return History{}, err
	}
	return h, nil
}

// timelineOf lists p's events from the timeline read model once it shows p's
// version: writers do not wait for it (timeline.Projection is refreshed on
// read), so a reader right after an edit would otherwise miss the edit.
func (u *Projects) timelineOf(ctx context.Context, p *project.Project) ([]timeline.Entry, error) {
	if u.runner != nil {
		if err := u.runner.Show(ctx, project.Stream(p.ID), p.Version, timeline.New().Name()); err != nil {
			return nil, fmt.Errorf("timeline of %s: %w", p.ID, err)
		}
	}
	return timeline.List(ctx, u.db, p.ID)
}

// CatchUp brings p, followed live by a subscriber that passed Readable, to
// the latest version of its stream; a project never created stays empty
// (p.ID == ""), which nobody may read. It checks no access itself.
//
// With a cache, p becomes a copy of the cached project, itself caught up:
// every live stream of the project on this instance (a designer's tabs,
// their colleagues') and every request share one read and one decoding
// of each new event, instead of each reading and decoding it again.
//
// seen (0: none) is a version the caller knows the stream has reached: a
// cached copy at least that new is taken without reading the store.
func (u *Projects) CatchUp(ctx context.Context, id string, p *project.Project, seen int64) error {
	if u.repo.Cache != nil {
		if seen <= 0 {
			seen = -1 // trust no copy: read the store
		}
		if fresh, err := u.repo.LoadSeen(ctx, id, seen); err == nil && fresh.Version >= p.Version {
			*p = *fresh
			return nil
		}
	}
	return u.repo.CatchUp(ctx, id, p)
}

// Replay rebuilds a project as it stood at version (0: latest) for a live
// stream whose subscriber passed Readable; it checks no access itself.
func (u *Projects) Replay(ctx context.Context, id string, version int64) (*project.Project, error) {
	return u.repo.LoadAt(ctx, id, version)
}
