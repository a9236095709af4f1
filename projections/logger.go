package projections

import (
	"context"
	"log/slog"

	"github.com/ThreeDotsLabs/watermill"
)

// Logger is Watermill's slog adapter that drops trace and debug messages
// before their fields are turned into attributes when the logger would not
// write them: Watermill traces every message it handles, and under `make
// load` building those attributes took about 1 % of an instance.
func Logger(l *slog.Logger) watermill.LoggerAdapter {
	if l == nil {
		l = slog.Default()
	}
	return quietLogger{LoggerAdapter: watermill.NewSlogLogger(l), slog: l}
}

type quietLogger struct {
	watermill.LoggerAdapter
	slog *slog.Logger
}

func (q quietLogger) Debug(msg string, fields watermill.LogFields) {
	if q.slog.Enabled(context.Background(), slog.LevelDebug) {
		q.LoggerAdapter.Debug(msg, fields)
	}
}

func (q quietLogger) Trace(msg string, fields watermill.LogFields) {
	if q.slog.Enabled(context.Background(), watermill.LevelTrace) {
		q.LoggerAdapter.Trace(msg, fields)
	}
}

func (q quietLogger) With(fields watermill.LogFields) watermill.LoggerAdapter {
	l := q.slog.With(slogArgs(fields)...)
	return quietLogger{LoggerAdapter: watermill.NewSlogLogger(l), slog: l}
}

func slogArgs(fields watermill.LogFields) []any {
	out := make([]any, 0, 2*len(fields))
	for k, v := range fields {
		out = append(out, k, v)
	}
	return out
}
