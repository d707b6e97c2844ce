package sqlite

// WithCheckpoints sets how many events the writer commits between two background
// checkpoints, and the WAL's bound in pages, so that a test goes through many.
func WithCheckpoints(every, walPages int) Option {
	return func(c *config) { c.checkpointEvery, c.walPages = every, walPages }
}
