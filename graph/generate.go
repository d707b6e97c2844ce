package graph

// gqlgen runs from the module root, where gqlgen.yml is.
//go:generate sh -c "cd .. && go tool gqlgen generate"
