//go:build !linux

package lowpriority

import (
	"errors"
	"fmt"
	"runtime"
)

// Elsewhere a process's nice value is shared by all its threads.
func supported() error {
	return fmt.Errorf("thread priorities on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}

func lower(int) error { return supported() }
