package usecase

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"draindesign/api/locale"
	"draindesign/domain/document/sheet"
	"draindesign/domain/fault"
	"draindesign/domain/help"
	"draindesign/domain/translation"
	"draindesign/eventstore"
	"draindesign/eventstore/aggregate"
	"draindesign/projections"
	"draindesign/projections/translations"
	"draindesign/web"
)

// Translations are the translators' use cases (change, reset, import a
// language's texts) and the readers' side: the merged catalogue every
// screen and document reads, and the help topics. Overrides are read from
// the read model and cached per instance; the cache is compared with the
// read model's revisions on every read of a catalogue and by Watch, so a
// change made on one instance reaches every instance without a restart.
type Translations struct {
	repo   *aggregate.Repository[*translation.Catalogue, translation.Event]
	db     *projections.DB
	runner *projections.Runner
	now    func() time.Time
	log    *slog.Logger
	help   fs.FS

	mu        sync.Mutex
	revisions map[string]int64
	loaded    bool
	messages  map[string]map[string]translations.Override // lang -> key
	helpTexts map[string]map[string]translations.Override // lang -> topic
}

type translationCodec struct{}

func (translationCodec) Encode(e translation.Event) (eventstore.NewEvent, error) {
	typ, schema, data, err := translation.Encode(e)
	return eventstore.NewEvent{Type: typ, Schema: schema, Data: data}, err
}

func (translationCodec) Decode(ev eventstore.Event) (translation.Event, error) {
	e, err := translation.Decode(ev.Type, ev.Schema, ev.Data)
	return e, unknown(ev, err)
}

// NewTranslations builds the translation use cases.
func NewTranslations(cfg Config) *Translations {
	cfg = cfg.withDefaults()
	sub, err := fs.Sub(web.Help, "help")
	if err != nil {
		panic(err) // "help" is a valid path; fs.Sub fails only for invalid ones
	}
	return &Translations{
		repo: &aggregate.Repository[*translation.Catalogue, translation.Event]{
			Store: cfg.Store, Codec: translationCodec{}, Stream: translation.Stream,
			New: func() *translation.Catalogue { return &translation.Catalogue{} },
			// A language nobody has changed yet has no stream: an empty
			// catalogue, not an error.
			Missing:  func(string) error { return nil },
			Appended: cfg.Appended, Skipped: cfg.skipped("translation"), NewID: NewID, Now: cfg.Now,
		},
		db: cfg.DB, runner: cfg.Runner, now: cfg.Now, log: cfg.Logger, help: sub,
	}
}

// CanTranslate reports whether the actor may change texts: translators,
// and administrators, who run the product.
func CanTranslate(a Actor) error {
	if err := signedIn(a); err != nil {
		return err
	}
	if f := a.User.Flags(); !f.IsTranslator && !f.IsAdmin {
		return fault.New(fault.Forbidden, "Only translators may change texts")
	}
	return nil
}

// Refresh reloads the overrides if the read model moved on since the last
// load, and lays them over the server's catalogue (documents, e-mails).
func (u *Translations) Refresh(ctx context.Context) error {
	revs, err := translations.Revisions(ctx, u.db)
	if err != nil {
		return err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.loaded && maps.Equal(revs, u.revisions) {
		return nil
	}
	msgs, err := translations.List(ctx, u.db, "", translation.KindMessage)
	if err != nil {
		return err
	}
	helps, err := translations.List(ctx, u.db, "", translation.KindHelp)
	if err != nil {
		return err
	}
	byLang := func(list []translations.Override) map[string]map[string]translations.Override {
		out := map[string]map[string]translations.Override{}
		for _, o := range list {
			if out[o.Language] == nil {
				out[o.Language] = map[string]translations.Override{}
			}
			out[o.Language][o.Key] = o
		}
		return out
	}
	u.messages, u.helpTexts = byLang(msgs), byLang(helps)
	over := locale.Overrides{}
	for lang, m := range u.messages {
		over[lang] = map[string]string{}
		for k, o := range m {
			over[lang][k] = o.Text
		}
	}
	if err := locale.SetOverrides(over); err != nil {
		return err
	}
	u.revisions, u.loaded = revs, true
	return nil
}

// Watch keeps this instance's overrides current until ctx ends: another
// instance's change reaches documents and e-mails within a poll.
func (u *Translations) Watch(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := u.Refresh(ctx); err != nil && ctx.Err() == nil {
			u.log.Warn("refresh translations", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Revisions are the languages' revisions, for clients polling for changes.
func (u *Translations) Revisions(ctx context.Context) (map[string]int64, error) {
	if err := u.Refresh(ctx); err != nil {
		return nil, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	out := map[string]int64{}
	for _, c := range locale.Codes {
		out[c] = u.revisions[c]
	}
	return out, nil
}

// Catalogue is a language's merged catalogue and its revision.
func (u *Translations) Catalogue(ctx context.Context, lang string) (map[string]string, int64, error) {
	if !translation.ValidLanguage(lang) {
		return nil, 0, fault.New(fault.NotFound, "No language %q", lang)
	}
	if err := u.Refresh(ctx); err != nil {
		return nil, 0, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	over := make(map[string]string, len(u.messages[lang]))
	for k, o := range u.messages[lang] {
		over[k] = o.Text
	}
	return locale.MergedWith(lang, over), u.revisions[lang], nil
}

// shippedHelp is the release's Markdown of a topic in a language, or "".
func (u *Translations) shippedHelp(lang, topic string) string {
	b, err := fs.ReadFile(u.help, lang+"/"+topic+".md")
	if err != nil {
		return ""
	}
	return string(b)
}

// helpText is a topic's Markdown as readers see it in lang ("" when the
// language has none). Call with u.mu held.
func (u *Translations) helpText(lang, topic string) string {
	if o, ok := u.helpTexts[lang][topic]; ok {
		return o.Text
	}
	return u.shippedHelp(lang, topic)
}

// TopicInfo is one help topic as GET /api/drainage/help-topics lists it.
type TopicInfo struct {
	Title string `json:"topic_title"`
	File  string `json:"topic_file"`
	Type  string `json:"help_type"`
	// Languages have a text of their own; the rest fall back to English.
	Languages []string `json:"languages"`
}

// HelpTopics lists the topics with the languages each is written in.
func (u *Translations) HelpTopics(ctx context.Context) ([]TopicInfo, error) {
	if err := u.Refresh(ctx); err != nil {
		return nil, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make([]TopicInfo, 0, len(help.Topics))
	for _, t := range help.Topics {
		info := TopicInfo{Title: t.Title, File: t.File, Type: t.Type, Languages: []string{}}
		for _, c := range locale.Codes {
			if strings.TrimSpace(u.helpText(c, t.File)) != "" {
				info.Languages = append(info.Languages, c)
			}
		}
		out = append(out, info)
	}
	return out, nil
}

// HelpMarkdown is a topic's Markdown in lang; NotFound when the topic is
// unknown or has no text in that language (the client then asks for en).
func (u *Translations) HelpMarkdown(ctx context.Context, lang, topic string) (string, error) {
	if _, ok := help.Find(topic); !ok || !translation.ValidLanguage(lang) {
		return "", fault.New(fault.NotFound, "No help topic %s/%s", lang, topic)
	}
	if err := u.Refresh(ctx); err != nil {
		return "", err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	text := u.helpText(lang, topic)
	if strings.TrimSpace(text) == "" {
		return "", fault.New(fault.NotFound, "The help topic %s has no %s text", topic, translation.LanguageName(lang))
	}
	return text, nil
}

// Row is one key of the translator's grid.
type Row struct {
	Key     string `json:"key"`
	English string `json:"english"`
	Text    string `json:"text"`
	Shipped string `json:"shipped"`
	// Overridden: a translator's text replaces the shipped one.
	Overridden bool       `json:"overridden"`
	ByName     string     `json:"by_name,omitempty"`
	At         *time.Time `json:"at,omitempty"`
	// Stale: the English text changed since this text was written.
	Stale bool `json:"stale"`
	// Placeholders and PluralForms are what the text must keep, for the
	// editor to check before it sends.
	Placeholders []string `json:"placeholders"`
}

// Texts is a language's grid for the editors, with the plural forms of the
// language.
type Texts struct {
	Language    string   `json:"language"`
	Kind        string   `json:"kind"`
	PluralForms []string `json:"plural_forms"`
	Revision    int64    `json:"revision"`
	Rows        []Row    `json:"rows"`
}

// Texts lists every text of a kind in lang beside the English one.
func (u *Translations) Texts(ctx context.Context, a Actor, lang, kind string) (Texts, error) {
	if err := CanTranslate(a); err != nil {
		return Texts{}, err
	}
	if !translation.ValidLanguage(lang) {
		return Texts{}, fault.New(fault.BadInput, "Unknown language %q", lang)
	}
	if err := u.Refresh(ctx); err != nil {
		return Texts{}, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	out := Texts{Language: lang, Kind: kind, PluralForms: translation.PluralForms(lang), Revision: u.revisions[lang]}
	row := func(key, english, shippedEnglish, shipped string, over map[string]translations.Override, englishOver map[string]translations.Override) Row {
		r := Row{Key: key, English: english, Text: shipped, Shipped: shipped, Placeholders: translation.Placeholders(english)}
		if r.Placeholders == nil {
			r.Placeholders = []string{}
		}
		if o, ok := over[key]; ok {
			at := o.At
			r.Text, r.Overridden, r.ByName, r.At = o.Text, true, o.ByName, &at
			r.Stale = lang != locale.Fallback && o.English != english
		} else if lang != locale.Fallback {
			_, englishChanged := englishOver[key]
			r.Stale = englishChanged && english != shippedEnglish && shipped != ""
		}
		return r
	}
	switch kind {
	case translation.KindMessage:
		en := locale.Shipped(locale.Fallback)
		mine := locale.Shipped(lang)
		keys := slices.Sorted(maps.Keys(en))
		// Plural forms a translator added that English has not.
		for k := range u.messages[lang] {
			if _, ok := en[k]; !ok && locale.Known(k) {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			english := en[k]
			if o, ok := u.messages[locale.Fallback][k]; ok {
				english = o.Text
			}
			out.Rows = append(out.Rows, row(k, english, en[k], mine[k], u.messages[lang], u.messages[locale.Fallback]))
		}
	case translation.KindHelp:
		for _, t := range help.Topics {
			english := u.helpText(locale.Fallback, t.File)
			out.Rows = append(out.Rows, row(t.File, english, u.shippedHelp(locale.Fallback, t.File), u.shippedHelp(lang, t.File),
				u.helpTexts[lang], u.helpTexts[locale.Fallback]))
		}
	default:
		return Texts{}, fault.New(fault.BadInput, "Unknown kind of text %q", kind)
	}
	if out.Rows == nil {
		out.Rows = []Row{}
	}
	return out, nil
}

// change builds the domain's change of one text, with what it is checked
// against. Call with u.mu held.
func (u *Translations) change(a Actor, lang, kind, key, text string) translation.Change {
	c := translation.Change{Check: translation.Check{Language: lang, Kind: kind, Key: key, Text: text},
		By: a.User.ID, ByName: a.User.Username, At: u.now().UTC()}
	switch kind {
	case translation.KindMessage:
		c.Known = locale.Known(key)
		english := locale.Shipped(locale.Fallback)[key]
		if base, _, plural := translation.PluralForm(key); plural && english == "" {
			english = locale.Shipped(locale.Fallback)[base+"_other"]
		}
		if o, ok := u.messages[locale.Fallback][key]; ok {
			english = o.Text
		}
		c.English, c.Shipped = english, locale.Shipped(lang)[key]
	case translation.KindHelp:
		_, c.Known = help.Find(key)
		c.English, c.Shipped = u.helpText(locale.Fallback, key), u.shippedHelp(lang, key)
	}
	return c
}

// Set changes one text; the answer is the language's revision after it.
func (u *Translations) Set(ctx context.Context, a Actor, lang, kind, key, text string) (int64, error) {
	return u.apply(ctx, a, lang, func(c *translation.Catalogue) ([]translation.Event, error) {
		return c.Set(u.change(a, lang, kind, key, text))
	})
}

// Reset drops a translator's text: readers see the shipped one again.
func (u *Translations) Reset(ctx context.Context, a Actor, lang, kind, key string) (int64, error) {
	return u.apply(ctx, a, lang, func(c *translation.Catalogue) ([]translation.Event, error) {
		return c.Reset(kind, key, a.User.ID, a.User.Username, u.now().UTC()), nil
	})
}

// ImportRefusal names a text of an import that was refused, and why.
type ImportRefusal struct {
	Key   string `json:"key"`
	Error string `json:"error"`
}

// Import sets many texts of one language at once, all or none: a file a
// translator worked on offline either passes every check or changes
// nothing, and the refusals list every text to fix.
func (u *Translations) Import(ctx context.Context, a Actor, lang, kind string, texts map[string]string) (int, error) {
	changed := 0
	_, err := u.apply(ctx, a, lang, func(c *translation.Catalogue) ([]translation.Event, error) {
		var all []translation.Event
		var refused []ImportRefusal
		for _, key := range slices.Sorted(maps.Keys(texts)) {
			evs, err := c.Set(u.change(a, lang, kind, key, texts[key]))
			if err != nil {
				refused = append(refused, ImportRefusal{Key: key, Error: err.Error()})
				continue
			}
			all = append(all, evs...)
		}
		if len(refused) > 0 {
			return nil, &fault.Error{K: fault.BadInput,
				Message: fmt.Sprintf("%d of the %d texts were refused; nothing was imported. First: %s: %s", len(refused), len(texts), refused[0].Key, refused[0].Error),
				Fields:  map[string]any{"refused": refused}}
		}
		changed = len(all)
		return all, nil
	})
	return changed, err
}

func (u *Translations) apply(ctx context.Context, a Actor, lang string, decide func(*translation.Catalogue) ([]translation.Event, error)) (int64, error) {
	if err := CanTranslate(a); err != nil {
		return 0, err
	}
	if !translation.ValidLanguage(lang) {
		return 0, fault.New(fault.BadInput, "Unknown language %q", lang)
	}
	if err := u.Refresh(ctx); err != nil {
		return 0, err
	}
	wrote := false
	cat, err := u.repo.Update(ctx, lang, -1, a.meta(), nil, func(c *translation.Catalogue) ([]translation.Event, error) {
		u.mu.Lock()
		defer u.mu.Unlock()
		if c.Language == "" {
			c.Language = lang // a language nobody changed yet
		}
		evs, err := decide(c)
		wrote = len(evs) > 0
		return evs, err
	})
	if err != nil {
		return 0, err
	}
	if wrote && u.runner != nil {
		if err := u.runner.WaitForStream(ctx, translation.Stream(lang), cat.StreamVersion()); err != nil {
			return 0, err
		}
	}
	if err := u.Refresh(ctx); err != nil {
		return 0, err
	}
	return cat.StreamVersion(), nil
}

// MayPreview checks the right to the help editor's preview.
func (u *Translations) MayPreview(a Actor) error { return CanTranslate(a) }

// FeatureSheet is the logged-out page's feature sheet of a version ("uk" or
// "int") in lang, with the translators' current texts.
func (u *Translations) FeatureSheet(ctx context.Context, version, lang string) (File, error) {
	if !slices.Contains(sheet.Versions, version) || !translation.ValidLanguage(lang) {
		return File{}, fault.New(fault.NotFound, "No feature sheet %s in %q", version, lang)
	}
	if err := u.Refresh(ctx); err != nil {
		return File{}, err
	}
	data, err := sheet.PDF(version, func(key string, data map[string]any) string { return locale.T(lang, key, data) }, Software, u.now().UTC())
	if err != nil {
		return File{}, err
	}
	return File{Name: fmt.Sprintf("feature-sheet-%s-%s.pdf", version, lang), ContentType: "application/pdf", Data: data}, nil
}
