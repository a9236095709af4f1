package api

import (
	"encoding/json"
	"sync"

	"github.com/gorilla/websocket"

	"draindesign/domain/project"
)

// liveViews shares a project's live message between the streams that show
// the same version to the same viewer (a designer's tabs, which the
// balancer keeps on one instance): the view is built and encoded once, and
// each connection writes the same frame (websocket.PreparedMessage).
// Building and encoding a view per tab was a tenth of an instance's CPU
// under `make load`.
type liveViews struct {
	mu sync.Mutex
	m  map[liveViewKey]liveViewEntry
}

type liveViewKey struct {
	project string
	viewer  project.Viewer
}

type liveViewEntry struct {
	version int64
	msg     *websocket.PreparedMessage
}

// maxLiveViews bounds the messages kept: one per project and viewer that
// a stream showed lately. When full it starts again.
const maxLiveViews = 5_000

// message is the "project" message of project id, p at its version, as v
// sees it.
func (lv *liveViews) message(id string, p *project.Project, v project.Viewer) (*websocket.PreparedMessage, error) {
	key := liveViewKey{project: id, viewer: v}
	lv.mu.Lock()
	e, ok := lv.m[key]
	lv.mu.Unlock()
	if ok && e.version == p.Version {
		return e.msg, nil
	}
	b, err := json.Marshal(liveProject{Type: "project", Project: id, Version: p.Version, View: projectView(p, v)})
	if err != nil {
		return nil, err
	}
	msg, err := websocket.NewPreparedMessage(websocket.TextMessage, b)
	if err != nil {
		return nil, err
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if lv.m == nil || len(lv.m) >= maxLiveViews {
		lv.m = make(map[liveViewKey]liveViewEntry)
	}
	if cur, ok := lv.m[key]; !ok || cur.version < p.Version {
		lv.m[key] = liveViewEntry{version: p.Version, msg: msg}
	}
	return msg, nil
}
