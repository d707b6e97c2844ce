package postgres

// ChannelOf is the notification channel of a store's schema, for tests.
func ChannelOf(s *Store) string { return s.channel() }
