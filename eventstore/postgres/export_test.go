package postgres

// ChannelOf is the notification channel of a store's schema, for tests.
func ChannelOf(s *Store) string { return s.channel() }

// QuoteText and QuoteBytes are the literals the head is written with, for tests.
var (
	QuoteText  = quoteText
	QuoteBytes = quoteBytes
)
