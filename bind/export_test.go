package bind

import "sync/atomic"

func init() { workDone = new(atomic.Int64) }

// WorkDone returns the bytes the checkers have read so far (see workDone).
func WorkDone() int64 { return workDone.Load() }
