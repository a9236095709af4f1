package projections

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/ThreeDotsLabs/watermill"
)

// The adapter writes what its logger's level lets through, fields
// included, also through With; what the level holds back is dropped
// without its fields being read.
func TestLoggerLevels(t *testing.T) {
	for _, c := range []struct {
		level slog.Level
		want  []string
		not   []string
	}{
		{slog.LevelInfo, []string{"info-msg", "error-msg", "k=v", "w=1"}, []string{"debug-msg", "trace-msg"}},
		{slog.LevelDebug, []string{"info-msg", "debug-msg", "k=v"}, []string{"trace-msg"}},
		{watermill.LevelTrace, []string{"debug-msg", "trace-msg", "w=1"}, nil},
	} {
		var buf bytes.Buffer
		l := Logger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: c.level})))
		f := watermill.LogFields{"k": "v"}
		l.Info("info-msg", f)
		l.Error("error-msg", nil, f)
		l.Debug("debug-msg", f)
		l.Trace("trace-msg", f)
		w := l.With(watermill.LogFields{"w": 1})
		w.Info("with-info", nil)
		w.Trace("with-trace", nil)
		out := buf.String()
		for _, s := range c.want {
			if !strings.Contains(out, s) {
				t.Errorf("level %v: %q missing from\n%s", c.level, s, out)
			}
		}
		for _, s := range c.not {
			if strings.Contains(out, s) {
				t.Errorf("level %v: %q written:\n%s", c.level, s, out)
			}
		}
		if (c.level <= watermill.LevelTrace) != strings.Contains(out, "with-trace") {
			t.Errorf("level %v: the With logger's trace wrong:\n%s", c.level, out)
		}
	}
}

// Trace of a message the level holds back, with the fields Watermill's
// router passes for each message (`go test -bench LoggerTrace ./projections`).
func BenchmarkLoggerTrace(b *testing.B) {
	l := slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	f := watermill.LogFields{"message_uuid": "0f8e", "topic": "events", "handler_name": "events"}
	for name, a := range map[string]watermill.LoggerAdapter{"watermill": watermill.NewSlogLogger(l), "quiet": Logger(l)} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a.Trace("Received message", f)
			}
		})
	}
}
