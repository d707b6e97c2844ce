package singlewriter

// HangBeforeCommit makes the writer of cfg call f before each commit that moves the
// checkpoint, in the writer's goroutine: a test makes the holder hang there with its
// connection open, as a goroutine stuck or a long pause would.
func HangBeforeCommit(cfg *Config, f func(position int64)) { cfg.beforeCommit = f }
