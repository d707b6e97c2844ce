package model

// Dispute is a dispute of a match (graph/schema/disputes.graphqls), for one caller: its
// match field shows the match as that caller may see it.
type Dispute struct {
	ID         string
	MatchID    string
	OpenedBy   string
	Seat       int
	Reason     string
	Status     DisputeStatus
	Cites      []*DisputeCite
	Statements []*DisputeStatement
	Ruling     *DisputeRuling
	Result     *DisputeResult

	ViewerID string `json:"-"` // the caller
	Review   bool   `json:"-"` // the caller is a reviewer: the match as a reviewer sees it
}
