package model

// UnfairChessCard is a card of UnfairChess's catalog.
type UnfairChessCard struct {
	ID      string
	NameFr  string
	NameEn  string
	Group   string
	Rarity  Rarity
	Copies  int
	Cost    CardCost
	Targets string
	TextFr  string
	TextEn  string
}

// IsCard marks UnfairChessCard as a Card.
func (UnfairChessCard) IsCard() {}

// Name is the card's name in lang.
func (c *UnfairChessCard) Name(lang Language) string { return inLanguage(lang, c.NameEn, c.NameFr) }

// Text is what the card does, in lang.
func (c *UnfairChessCard) Text(lang Language) string { return inLanguage(lang, c.TextEn, c.TextFr) }

// inLanguage picks the text in lang among a card's English and French ones.
func inLanguage(lang Language, en, fr string) string {
	if lang == LanguageFr {
		return fr
	}
	return en
}
