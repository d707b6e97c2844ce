package model

// The economy's types that carry texts in two languages (schema: economy.graphqls).

// Hat is a hat of the catalog.
type Hat struct {
	ID             string
	NameEn, NameFr string
	Price          int
}

// Name is the hat's name in lang.
func (h *Hat) Name(lang Language) string { return inLanguage(lang, h.NameEn, h.NameFr) }

// Badge is a badge a player unlocked.
type Badge struct {
	ID             string
	NameEn, NameFr string
	TextEn, TextFr string
}

// Name is the badge's name in lang.
func (b *Badge) Name(lang Language) string { return inLanguage(lang, b.NameEn, b.NameFr) }

// Text is what unlocks the badge, in lang.
func (b *Badge) Text(lang Language) string { return inLanguage(lang, b.TextEn, b.TextFr) }

// DailyChallenge is a challenge of the day and how far its player is.
type DailyChallenge struct {
	ID                     string
	Game                   Game
	TextEn, TextFr         string
	Progress, Goal, Reward int
	Done                   bool
}

// Text is the challenge in lang.
func (c *DailyChallenge) Text(lang Language) string { return inLanguage(lang, c.TextEn, c.TextFr) }

// League is a league of Solwaris.
type League struct {
	ID             string
	NameEn, NameFr string
	Min            int
	Max            *int
}

// Name is the league's name in lang.
func (l *League) Name(lang Language) string { return inLanguage(lang, l.NameEn, l.NameFr) }
