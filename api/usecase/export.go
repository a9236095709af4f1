package usecase

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/projectlist"
	"draindesign/projections/timeline"
)

// Exports make a user's copy of everything the product holds about them
// (docs/privacy.md, "Export").
type Exports struct {
	accounts  *Accounts
	projects  *Projects
	documents *Documents
	store     eventstore.Store
	db        *projections.DB
	now       func() time.Time
}

// NewExports builds the export use case.
func NewExports(cfg Config, accounts *Accounts, projects *Projects, documents *Documents) *Exports {
	cfg = cfg.withDefaults()
	return &Exports{accounts: accounts, projects: projects, documents: documents, store: cfg.Store, db: cfg.DB, now: cfg.Now}
}

// ExportedAccount is account.json of an export.
type ExportedAccount struct {
	ID                  string                 `json:"id"`
	Username            string                 `json:"username"`
	FirstName           string                 `json:"first_name"`
	LastName            string                 `json:"last_name"`
	Email               string                 `json:"email"`
	Company             string                 `json:"company"`
	Telephone           string                 `json:"telephone"`
	Country             string                 `json:"country"`
	Address             string                 `json:"address"`
	City                string                 `json:"city"`
	Postcode            string                 `json:"postcode"`
	Group               string                 `json:"group"`
	Language            string                 `json:"language"`
	RainfallUnits       string                 `json:"rainfall_units"`
	DefaultAdvancedMode bool                   `json:"default_advanced_mode"`
	Confirmed           bool                   `json:"confirmed"`
	RegisteredAt        time.Time              `json:"registered_at"`
	APITokens           []account.APITokenView `json:"api_tokens"`
	// History is every event of the account, oldest first, without
	// password and token hashes.
	History []ExportedEvent `json:"history"`
}

// ExportedEvent is one event of an exported history.
type ExportedEvent struct {
	Version int64           `json:"version"`
	Type    string          `json:"type"`
	Author  string          `json:"author,omitempty"`
	Time    time.Time       `json:"time"`
	Data    json.RawMessage `json:"data"`
}

// ExportedProject is projects/<id>/project.json of an export: the project
// as the load call shows it, its runs with inputs and results, and its
// timeline.
type ExportedProject struct {
	ID                string           `json:"id"`
	Details           project.Details  `json:"details"`
	Settings          project.Settings `json:"settings"`
	Notes             string           `json:"notes"`
	Country           string           `json:"country"`
	Created           time.Time        `json:"created"`
	LastSaved         time.Time        `json:"last_saved"`
	ShareWithProvider bool             `json:"share_with_provider"`
	Runs              []map[string]any `json:"runs"`
	// Document names the PDF of the whole project beside this file, or
	// says why there is none.
	Document      string           `json:"document,omitempty"`
	DocumentError string           `json:"document_error,omitempty"`
	History       []timeline.Entry `json:"history"`
}

// ExportFileName is the name of the downloaded archive.
const ExportFileName = "draindesign-export.zip"

// Export is a ZIP of account.json and, per live saved project,
// projects/<id>/project.json and the project's full PDF document in the
// user's language.
func (u *Exports) Export(ctx context.Context, a Actor) (File, error) {
	if err := signedIn(a); err != nil {
		return File{}, err
	}
	acc, err := u.accounts.Load(ctx, a.User.ID)
	if err != nil {
		return File{}, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	now := u.now().UTC()
	put := func(name string, data []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: now})
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	putJSON := func(name string, v any) error {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		return put(name, append(data, '\n'))
	}
	exported, err := u.account(ctx, acc)
	if err != nil {
		return File{}, err
	}
	if err := putJSON("account.json", exported); err != nil {
		return File{}, fmt.Errorf("export: %w", err)
	}
	// Saves and deletions do not wait for the list: bring it up first.
	if u.projects.runner != nil {
		if err := u.projects.runner.Refresh(ctx, projectlist.Projection{}.Name()); err != nil {
			return File{}, err
		}
	}
	items, err := projectlist.Owned(ctx, u.db, acc.ID)
	if err != nil {
		return File{}, err
	}
	for _, it := range items {
		o, err := u.projects.Open(ctx, a, OpenBy{ID: it.ID})
		if err != nil {
			return File{}, fmt.Errorf("export project %s: %w", it.ID, err)
		}
		p := o.Project
		ep := ExportedProject{ID: p.ID, Details: p.Details, Settings: p.Settings, Notes: p.Notes, Country: p.Country,
			Created: p.Created, LastSaved: p.LastSaved, ShareWithProvider: p.ShareWithProvider, Runs: []map[string]any{}}
		runs := make([]json.RawMessage, 0, len(p.Runs))
		for _, run := range p.Runs {
			v := RunView(run)
			ep.Runs = append(ep.Runs, v)
			raw, err := json.Marshal(v)
			if err != nil {
				return File{}, fmt.Errorf("export project %s: %w", p.ID, err)
			}
			runs = append(runs, raw)
		}
		if ep.History, err = u.projects.timelineOf(ctx, p); err != nil {
			return File{}, err
		}
		// ProjectID stays empty: an export records nothing in the project.
		doc, err := u.documents.PDF(ctx, a, DocumentOrder{
			DocumentRequest: DocumentRequest{ProjectName: p.Details.Name, Language: acc.Language, Runs: runs},
			Details:         p.Details, Settings: p.Settings, Kind: "all",
		})
		dir := path.Join("projects", p.ID)
		if err != nil {
			ep.DocumentError = err.Error()
		} else {
			ep.Document = doc.Name
			if err := put(path.Join(dir, doc.Name), doc.Data); err != nil {
				return File{}, fmt.Errorf("export: %w", err)
			}
		}
		if err := putJSON(path.Join(dir, "project.json"), ep); err != nil {
			return File{}, fmt.Errorf("export: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return File{}, fmt.Errorf("export: %w", err)
	}
	return File{Name: ExportFileName, ContentType: "application/zip", Data: buf.Bytes()}, nil
}

func (u *Exports) account(ctx context.Context, acc *account.Account) (ExportedAccount, error) {
	out := ExportedAccount{
		ID: acc.ID, Username: acc.Username, FirstName: acc.FirstName, LastName: acc.LastName, Email: acc.Email,
		Company: acc.Company, Telephone: acc.Telephone, Country: acc.Country, Address: acc.Address, City: acc.City,
		Postcode: acc.Postcode, Group: string(acc.Group), Language: acc.Language, RainfallUnits: acc.RainfallUnits,
		DefaultAdvancedMode: acc.DefaultAdvancedMode, Confirmed: acc.Confirmed, RegisteredAt: acc.RegisteredAt,
		APITokens: acc.LiveAPITokens(), History: []ExportedEvent{},
	}
	evs, err := u.store.ReadStream(ctx, account.Stream(acc.ID), 1, 0)
	if err != nil {
		return out, fmt.Errorf("export account %s: %w", acc.ID, err)
	}
	for _, ev := range evs {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(ev.Data, &fields); err != nil {
			return out, fmt.Errorf("export account %s v%d: %w", acc.ID, ev.Version, err)
		}
		// Secrets' hashes are no data about the user and would only help
		// whoever gets hold of the file.
		delete(fields, "password_hash")
		delete(fields, "hash")
		data, err := json.Marshal(fields)
		if err != nil {
			return out, err
		}
		out.History = append(out.History, ExportedEvent{Version: ev.Version, Type: ev.Type, Author: ev.Metadata.Author,
			Time: ev.Metadata.Time, Data: data})
	}
	return out, nil
}

// RunView is a run as the client holds it: its inputs, with identity,
// notes, results and state alongside.
func RunView(run *project.Run) map[string]any {
	out := make(map[string]any, len(run.Inputs)+6)
	for k, v := range run.Inputs {
		out[k] = v
	}
	out["saveID"], out["name"], out["notes"], out["state"] = run.ID, run.Name, run.Notes, run.State()
	if run.Summary != nil {
		out["results"] = run.Summary
	}
	return out
}
