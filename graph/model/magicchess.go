package model

// MagicChessCard is a card of Ajedrez Mágico's catalog.
type MagicChessCard struct {
	ID          string
	NameEs      string
	NameEn      string
	TextEs      string
	TextEn      string
	Copies      int
	Group       string
	Window      CardWindow
	Duration    int
	Targets     string
	Reaction    *string
	Implemented bool
	Rarity      Rarity
	Cost        CardCost
}

// IsCard marks MagicChessCard as a Card.
func (MagicChessCard) IsCard() {}

// Name is the card's name in lang: Spanish for ES, English otherwise.
func (c *MagicChessCard) Name(lang Language) string { return spanishOr(lang, c.NameEs, c.NameEn) }

// Text is what the card does in lang: Spanish for ES, English otherwise.
func (c *MagicChessCard) Text(lang Language) string { return spanishOr(lang, c.TextEs, c.TextEn) }

// NameFr is the deprecated French name: Ajedrez Mágico has none, so the English one.
func (c *MagicChessCard) NameFr() string { return c.NameEn }

// TextFr is the deprecated French text: the English one.
func (c *MagicChessCard) TextFr() string { return c.TextEn }

// spanishOr picks es for ES, en otherwise.
func spanishOr(lang Language, es, en string) string {
	if lang == LanguageEs {
		return es
	}
	return en
}
