package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"draindesign/domain/fault"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"

	"github.com/gorilla/websocket"
)

// The live project stream. A client subscribes to a project from the last
// version it holds and receives every later event, in order, each with the
// state of every run after it. Events come from the feed as they are
// committed; whenever the feed cannot vouch for continuity (a gap, or the
// subscriber was dropped for being slow) the stream is re-read from the
// store, so a client never misses an event and never sees one twice.

type liveRequest struct {
	Type    string `json:"type"` // subscribe or unsubscribe
	Project string `json:"project"`
	From    int64  `json:"from"`
}

type liveEvent struct {
	Type      string                      `json:"type"` // event
	Project   string                      `json:"project"`
	Version   int64                       `json:"version"`
	EventType string                      `json:"event_type"`
	Data      json.RawMessage             `json:"data"`
	Author    string                      `json:"author"`
	Time      time.Time                   `json:"time"`
	Runs      map[string]project.RunState `json:"runs"`
	Order     []string                    `json:"order"`
}

// hiddenProject is what a subscriber hears of a project it may not see.
var hiddenProject = &project.NotFoundError{What: "project"}

type liveError struct {
	Type    string `json:"type"` // error
	Project string `json:"project,omitempty"`
	Error   string `json:"error"`
}

const (
	livePing    = 30 * time.Second
	liveTimeout = 70 * time.Second
)

var upgrader = websocket.Upgrader{ReadBufferSize: 4096, WriteBufferSize: 16384}

func (s *Server) websocket(w http.ResponseWriter, r *http.Request) {
	me := actorOf(r)
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the client
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan any, 64)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
		close(out)
	}()
	go liveWriter(conn, out, cancel)

	subs := map[string]context.CancelFunc{}
	conn.SetReadLimit(64 << 10)
	_ = conn.SetReadDeadline(time.Now().Add(liveTimeout))
	conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(liveTimeout)) })
	for {
		var req liveRequest
		if err := conn.ReadJSON(&req); err != nil {
			return
		}
		switch req.Type {
		case "subscribe":
			if stop, ok := subs[req.Project]; ok {
				stop()
			}
			_, err := s.projects.Readable(ctx, me, req.Project, "")
			if err != nil {
				send(ctx, out, liveError{Type: "error", Project: req.Project, Error: fault.Message(hiddenProject)})
				continue
			}
			subCtx, stop := context.WithCancel(ctx)
			subs[req.Project] = stop
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.follow(subCtx, req.Project, req.From, out)
			}()
		case "unsubscribe":
			if stop, ok := subs[req.Project]; ok {
				stop()
				delete(subs, req.Project)
			}
		default:
			send(ctx, out, liveError{Type: "error", Error: `Unknown message type; use "subscribe" or "unsubscribe"`})
		}
	}
}

func send(ctx context.Context, out chan<- any, v any) bool {
	select {
	case out <- v:
		return true
	case <-ctx.Done():
		return false
	}
}

// liveWriter is the connection's only writer, as gorilla/websocket needs.
func liveWriter(conn *websocket.Conn, out <-chan any, cancel context.CancelFunc) {
	defer conn.Close()
	ping := time.NewTicker(livePing)
	defer ping.Stop()
	for {
		select {
		case v, ok := <-out:
			if !ok {
				_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
				return
			}
			_ = conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := conn.WriteJSON(v); err != nil {
				cancel()
				for range out { // drain until the reader side closes out
				}
				return
			}
		case <-ping.C:
			if err := conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(10*time.Second)); err != nil {
				cancel()
				for range out {
				}
				return
			}
		}
	}
}

// follow sends the project's events after version from until ctx ends.
func (s *Server) follow(ctx context.Context, id string, from int64, out chan<- any) {
	stream := project.Stream(id)
	p, err := s.projects.Replay(ctx, id, from)
	if err != nil || from == 0 {
		p = &project.Project{}
	}
	last := p.Version
	emit := func(ev eventstore.Event) bool {
		e, err := project.Decode(ev.Type, ev.Schema, ev.Data)
		if errors.Is(err, project.ErrUnknownEventType) {
			// Nothing to tell the client; the next event follows on.
			projections.SkipUnknown("live", ev.Type)
			last = ev.Version
			return true
		}
		if err != nil {
			return false
		}
		// The client reads each type in its current shape, upcast if the
		// event was stored in an older one.
		if _, _, data, err := project.Encode(e); err == nil {
			ev.Data = data
		}
		p.Apply(e)
		last = ev.Version
		return send(ctx, out, liveEventOf(id, ev, p))
	}
	for ctx.Err() == nil {
		feed, unsubscribe := s.cfg.Feed.Subscribe(stream)
		evs, err := s.cfg.Store.ReadStream(ctx, stream, last+1, 0)
		if err != nil {
			unsubscribe()
			return
		}
		for _, ev := range evs {
			if !emit(ev) {
				unsubscribe()
				return
			}
		}
		s.followFeed(ctx, feed, &last, emit)
		unsubscribe()
	}
}

// followFeed forwards feed events until the feed is dropped, skips ahead
// (a gap) or ctx ends; the caller then re-reads the store.
func (s *Server) followFeed(ctx context.Context, feed <-chan eventstore.Event, last *int64, emit func(eventstore.Event) bool) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-feed:
			switch {
			case !ok, ev.Version > *last+1:
				return
			case ev.Version <= *last:
				continue
			}
			if !emit(ev) {
				return
			}
		}
	}
}

func liveEventOf(id string, ev eventstore.Event, p *project.Project) liveEvent {
	runs := make(map[string]project.RunState, len(p.Runs))
	order := make([]string, len(p.Runs))
	for i, r := range p.Runs {
		runs[r.ID] = r.State()
		order[i] = r.ID
	}
	return liveEvent{Type: "event", Project: id, Version: ev.Version, EventType: ev.Type, Data: ev.Data,
		Author: ev.Metadata.Author, Time: ev.Metadata.Time, Runs: runs, Order: order}
}
